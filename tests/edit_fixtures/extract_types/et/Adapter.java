package et;

public abstract class Adapter<T> {
    public abstract T read(String in);
}
