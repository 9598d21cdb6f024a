package com.example.app;

import com.example.core.Calc;

public class Greeter {
    public String greet(String name) {
        return "Hello, " + name + " (" + new Calc().add(1, 1) + ")";
    }
}
