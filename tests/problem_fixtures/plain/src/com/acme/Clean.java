package com.acme;

import java.util.ArrayList;
import java.util.List;

/** Compiles without a single warning. */
public class Clean {
    private final List<String> names = new ArrayList<>();

    public void add(String name) {
        names.add(name);
    }

    public int count() {
        return names.size();
    }
}
