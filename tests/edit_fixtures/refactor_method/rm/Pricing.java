package rm;

public class Pricing {
    private int rate = 3;

    private static int square(int x) {
        return x * x;
    }

    private int scaled(int x) {
        return x * rate;
    }

    private static void log(String msg) {
        String line = "[pricing] " + msg;
        System.out.println(line);
    }

    static int fact(int n) {
        return n <= 1 ? 1 : n * fact(n - 1);
    }

    public static double half(int x) {
        return x / 2.0;
    }

    int quote(int base) {
        int s = square(base + 1);
        int t = square(next()) + scaled(base);
        log("quote " + s);
        double h = half(base) * 2;
        return s + t + (int) h;
    }

    private int next() {
        return rate++;
    }
}
