package rf;

import java.util.List;

/** Helpers. */
public class Util {
    /** The default size. */
    static final int SIZE = 10;

    /** Never used. */
    private int unused = 3;

    /** Used by Main. */
    static int twice(int x) {
        return x * 2;
    }

    /**
     * Never called, recursive.
     */
    static int countdown(int n) {
        return n <= 0 ? 0 : countdown(n - 1);
    }

    static int sum(List<Integer> xs) {
        int total = 0;
        for (int x : xs) {
            total += x;
        }
        return total;
    }
}
