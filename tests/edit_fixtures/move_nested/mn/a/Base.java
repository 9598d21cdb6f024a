package mn.a;

public class Base {
    protected Base() {
    }

    protected int size() {
        return 1;
    }
}
