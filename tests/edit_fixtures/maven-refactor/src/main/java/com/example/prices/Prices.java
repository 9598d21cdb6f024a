package com.example.prices;

import java.util.List;

/** Totals with tax; refactored by the test, then tested by Maven. */
public class Prices {
    static final int RATE_PERCENT = 20;

    public static long total(List<Long> cents) {
        long sum = 0;
        for (long c : cents) {
            sum += c;
        }
        long tax = sum * RATE_PERCENT / 100;
        return sum + tax;
    }

    public static String label(long cents) {
        return cents / 100 + "." + String.format("%02d", cents % 100);
    }

    private static int unusedHelper() {
        return 1;
    }
}
