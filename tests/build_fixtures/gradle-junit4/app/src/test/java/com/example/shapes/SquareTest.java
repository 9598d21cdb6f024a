package com.example.shapes;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class SquareTest {
    @Test
    public void area() {
        assertEquals(4, new Square(2).area());
    }

    @Test
    public void perimeter() {
        assertEquals(8, new Square(2).perimeter());
    }
}
