package com.example.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CalcTest {
    private final Calc calc = new Calc();

    @Test
    void adds() {
        assertEquals(5, calc.add(2, 3));
    }

    @Test
    void multiplies() {
        System.out.println("multiplying 6 by 7");
        assertEquals(42, calc.times(6, 7), "product");
    }

    @Test
    void dividesByZero() {
        calc.divide(1, 0);
    }

    @Disabled("not today")
    @Test
    void later() {
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void addsZero(int n) {
        assertEquals(n == 3 ? 4 : n, calc.add(n, 0));
    }
}
