package com.example.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        assertEquals(5, new Calc().add(2, 3));
    }

    @Test
    void multiplies() {
        assertEquals(6, new Calc().mul(2, 3));
    }
}
