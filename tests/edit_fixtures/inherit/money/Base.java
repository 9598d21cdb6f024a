package money;

public abstract class Base {
    protected abstract int weight();

    public String describe() {
        return "base";
    }

    public final int id() {
        return 1;
    }
}
