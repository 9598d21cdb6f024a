package com.example.app;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;

public class TotalsTest {
    private int sumOf(Integer... xs) {
        return new Totals().sum(List.of(xs));
    }

    @Test
    public void sums() {
        assertEquals(6, sumOf(1, 2, 3));
    }

    @Test
    public void labels() {
        assertEquals("total of x", new Totals().label("x"));
    }
}
