package com.example.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NamesTest {
    @Test
    void shouts() {
        assertEquals("BOB", Names.shout(" bob "));
    }
}
