package sg;

import java.util.function.IntUnaryOperator;

public class Util {
    /** Joins a text and a count. */
    static String join(String text, int count) {
        return text + count;
    }

    static String join(int count, String text) {
        return count + text;
    }

    static int twice(int x) {
        return 2 * x;
    }

    static int clamp(int value, int low, int high) {
        return Math.max(low, Math.min(value, high));
    }

    static final IntUnaryOperator DOUBLER = Util::twice;

    interface Op {
        int apply(int a, int b);
    }

    static final Op ADD = (a, b) -> a + b;
}
