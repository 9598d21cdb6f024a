package mm.b;

public class Maths {
    /** An inner class. */
    public class Part {
    }

    public static int twice(int x) {
        return 2 * x;
    }

    public static int clamp(int x) {
        return Math.max(0, x);
    }
}
