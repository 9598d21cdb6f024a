package com.acme;

public class Types {
    public int wrong() {
        int n = "not a number";
        return n;
    }

    public int unresolved() {
        Clean c = new Clean();
        return c.size() + missingVariable;
    }
}
