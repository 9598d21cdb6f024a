package dp;

import java.util.List;

public class Report {
    private final StringBuilder out = new StringBuilder();

    int total(List<Integer> prices, int tax) {
        int sum = 0;
        for (int p : prices) {
            sum += p;
        }
        int withTax = sum + sum * tax / 100;
        out.append("total ").append(withTax).append('\n');
        return withTax;
    }

    int net(List<Integer> items) {
        // The same statements over other names: replaced.
        int sum = 0;
        for (int p : items) {
            sum += p;
        }
        return sum;
    }

    static int count(List<Integer> values, int start) {
        int n = start;
        // In a static method, with other names again: replaced.
        int total = 0;
        for (int v : values) {
            total += v;
        }
        return n + total;
    }

    void log(List<Integer> items) {
        // The same tokens, but nothing reads the sum after them: left (with a warning).
        int sum = 0;
        for (int p : items) {
            sum += p;
        }
    }

    long wide(List<Long> longs) {
        // Another type: not a duplicate.
        long sum = 0;
        for (long p : longs) {
            sum += p;
        }
        return sum;
    }
}
