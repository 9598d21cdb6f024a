package com.example;

import java.util.List;

/**
 * Greets people, politely or not.
 */
public class Greeter {

    /** How greetings end. */
    private final String suffix;

    /** A greeter that ends greetings with "!". */
    public Greeter() {
        this("!");
    }

    /**
     * A greeter with its own suffix.
     *
     * @param suffix appended to every greeting
     */
    public Greeter(String suffix) {
        this.suffix = suffix;
    }

    /**
     * Greets one person.
     *
     * @param name who to greet
     * @return the greeting
     */
    public String greet(String name) {
        return "Hello, " + name + suffix;
    }

    /** Greets everyone, one line each. */
    @Deprecated
    public List<String> greet(List<String> names, Style style) {
        return names.stream().map(n -> style == Style.LOUD ? greet(n).toUpperCase() : greet(n)).toList();
    }

    /** How loud a greeting is. */
    public enum Style { QUIET, LOUD }
}
