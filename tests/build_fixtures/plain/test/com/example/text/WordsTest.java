package com.example.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WordsTest {
    @Test
    void counts() {
        assertEquals(3, Words.count(" a b  c "));
    }

    @Test
    void initialsAreUpperCase() {
        assertEquals("AL", Words.initials("ada lovelace"));
    }
}
