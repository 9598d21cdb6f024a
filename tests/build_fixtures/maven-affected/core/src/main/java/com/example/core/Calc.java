package com.example.core;

/** Arithmetic: `add` is what the affected_tests test changes. */
public class Calc {
    public int add(int a, int b) {
        return a + b;
    }

    public int mul(int a, int b) {
        return a * b;
    }
}
