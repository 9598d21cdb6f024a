package com.acme;

/** Resolves Clean from the source path, not from the files given to javac. */
public class UsesClean {
    public int one() {
        Clean c = new Clean();
        c.add("x");
        return c.count();
    }
}
