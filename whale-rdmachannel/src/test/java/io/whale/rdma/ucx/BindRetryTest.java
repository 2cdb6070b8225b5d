package io.whale.rdma.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BindRetryTest {
    @Test
    void shouldDoubleThePauseUpToItsCap() {
        BindRetry retry = new BindRetry(0, 100_000);
        assertEquals(20, retry.pauseAfterFailure(0));
        assertEquals(40, retry.pauseAfterFailure(20));
        assertEquals(80, retry.pauseAfterFailure(60));
        assertEquals(160, retry.pauseAfterFailure(140));
        assertEquals(320, retry.pauseAfterFailure(300));
        assertEquals(500, retry.pauseAfterFailure(620));
        assertEquals(500, retry.pauseAfterFailure(1120));
    }

    @Test
    void shouldStopWhenTheNextAttemptWouldStartAfterTheDeadline() {
        BindRetry retry = new BindRetry(1_000, 100);
        assertEquals(20, retry.pauseAfterFailure(1_000));
        assertEquals(40, retry.pauseAfterFailure(1_020));
        assertEquals(-1, retry.pauseAfterFailure(1_070), "1070 + 80 is past 1100");
    }

    @Test
    void shouldTryOnceWithATimeoutOfZero() {
        assertEquals(-1, new BindRetry(5, 0).pauseAfterFailure(5));
    }
}
