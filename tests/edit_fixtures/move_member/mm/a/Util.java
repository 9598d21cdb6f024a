package mm.a;

import java.util.List;

public class Util {
    public static final int LIMIT = 10;

    static int secret = 3;

    /** Sums the parts, each clamped to {@link #LIMIT}. */
    @SuppressWarnings("unused")
    public static int sum(List<Integer> xs) {
        int s = 0;
        for (int x : xs) {
            s += clamp(x);
        }
        return Math.min(s, LIMIT * 100);
    }

    public static int clamp(int x) {
        return Math.min(x, LIMIT);
    }

    static int peek() {
        return secret;
    }

    static int helper() {
        return 4;
    }

    private static int hidden() {
        return 1;
    }

    public static int usesHidden() {
        return hidden();
    }

    public static int bump(int x) {
        return x + 1;
    }

    public int instance() {
        return LIMIT;
    }

    public int total(List<Integer> xs) {
        return sum(xs) + clamp(2) + Util.LIMIT;
    }

    static final int SEED;

    static {
        SEED = 7;
    }
}
