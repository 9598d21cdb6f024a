package com.example.shapes;

/** A square of a whole side. */
public class Square {
    private final int side;

    public Square(int side) {
        this.side = side;
    }

    public int area() {
        return side * side;
    }

    public int perimeter() {
        return side * 3;
    }
}
