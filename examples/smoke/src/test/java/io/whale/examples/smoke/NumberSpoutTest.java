package io.whale.examples.smoke;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NumberSpoutTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void shouldEmitEachNumberOnceWithoutARate() {
        NumberSpout once = new NumberSpout(100, 0);

        assertTrue(once.mayEmit(99, 0));
        assertFalse(once.mayEmit(100, 3600 * SECOND), "quiet after one round");
    }

    @Test
    void shouldKeepEmittingRoundAfterRoundAtItsRate() {
        NumberSpout paced = new NumberSpout(100, 50);

        assertFalse(paced.mayEmit(0, 0));
        assertTrue(paced.mayEmit(149, 3 * SECOND), "a third second's tuples, beyond one round of 100");
        assertFalse(paced.mayEmit(150, 3 * SECOND), "no more than 50 per second");
    }
}
