package com.example.app;

import com.example.core.Calc;
import java.util.List;

/** The helper between app's tests and core's code. */
public class Totals {
    private final Calc calc = new Calc();

    public int sum(List<Integer> xs) {
        int s = 0;
        for (int x : xs) {
            s = calc.add(s, x);
        }
        return s;
    }

    public String label(String name) {
        return "total of " + name;
    }
}
