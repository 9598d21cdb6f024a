package lm;

/** A workspace functional interface: one abstract method, a default and a constant. */
public interface Op extends Named {
    int LIMIT = 100;

    int apply(int x);

    default Op twice() {
        return x -> apply(apply(x));
    }
}
