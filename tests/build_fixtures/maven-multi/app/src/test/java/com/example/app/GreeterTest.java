package com.example.app;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class GreeterTest {
    @Test
    public void greets() {
        assertEquals("Hello, Ada (2)", new Greeter().greet("Ada"));
    }

    @Test
    public void greetsLoudly() {
        assertEquals("HELLO, ADA", new Greeter().greet("Ada"));
    }
}
