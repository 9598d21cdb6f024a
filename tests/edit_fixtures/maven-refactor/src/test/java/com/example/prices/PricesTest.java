package com.example.prices;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class PricesTest {
    @Test
    void totalsWithTax() {
        assertEquals(1200L, Prices.total(List.of(400L, 600L)));
    }

    @Test
    void labels() {
        assertEquals("12.05", Prices.label(1205));
    }
}
