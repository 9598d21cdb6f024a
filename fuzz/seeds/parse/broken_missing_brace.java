package com.example.outline.broken;

import java.util.List;

/**
 * A class whose second method is missing its closing brace.
 */
class MissingBrace {

    /** A good field. */
    private int total;

    /** A good constructor. */
    MissingBrace(int total) {
        this.total = total;
    }

    /**
     * A good method before the error.
     *
     * @return the total
     */
    int total() {
        return total;
    }

    /** This method never closes. */
    void broken(List<String> items) {
        for (String item : items) {
            total += item.length();
        }

    /** A method that javac sees as nested in the broken one. */
    void after() {
        total = 0;
    }

    /** Another good-looking method. */
    int twice() {
        return total * 2;
    }
}
