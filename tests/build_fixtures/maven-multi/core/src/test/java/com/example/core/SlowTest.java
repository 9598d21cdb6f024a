package com.example.core;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/** Sleeps past any wait budget when `fixture.slow` is set (otherwise skipped at once). */
class SlowTest {
    @Test
    void sleeps() throws InterruptedException {
        assumeTrue(Boolean.getBoolean("fixture.slow"), "fixture.slow is not set");
        Thread.sleep(120_000);
    }
}
