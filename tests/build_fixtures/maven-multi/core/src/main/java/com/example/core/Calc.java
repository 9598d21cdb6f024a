package com.example.core;

/** Arithmetic for the fixture's tests. */
public class Calc {
    public int add(int a, int b) {
        return a + b;
    }

    /** Off by one on purpose: the failing test's expected/actual. */
    public int times(int a, int b) {
        return a * b + 1;
    }

    public int divide(int a, int b) {
        if (b == 0) {
            throw new IllegalStateException("division by zero: " + a + " / " + b);
        }
        return a / b;
    }
}
