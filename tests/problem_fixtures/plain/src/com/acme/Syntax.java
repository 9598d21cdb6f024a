package com.acme;

public class Syntax {
    public int sum(int a, int b) {
        int total = a + b
        return total;
    }
}
