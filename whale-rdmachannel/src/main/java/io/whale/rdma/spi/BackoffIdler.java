package io.whale.rdma.spi;

import java.util.concurrent.locks.LockSupport;

/**
 * Idle strategy for a progress loop on shared cores: spin briefly, then yield, then park with a doubling
 * period capped at {@code maxParkNanos}. Busy polling on two shared cores degrades everybody sharply.
 */
public final class BackoffIdler {
    private static final int SPINS = 50;
    private static final int YIELDS = 10;
    private static final long MIN_PARK_NANOS = 1_000;

    private final long maxParkNanos;
    private int idleTurns;
    private long parkNanos = MIN_PARK_NANOS;

    public BackoffIdler(long maxParkNanos) {
        this.maxParkNanos = Math.max(MIN_PARK_NANOS, maxParkNanos);
    }

    /** Call after each loop turn with the amount of work it did. */
    public void idle(int workDone) {
        if (workDone > 0) {
            idleTurns = 0;
            parkNanos = MIN_PARK_NANOS;
            return;
        }
        idleTurns++;
        if (idleTurns <= SPINS) {
            Thread.onSpinWait();
        } else if (idleTurns <= SPINS + YIELDS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(parkNanos);
            parkNanos = Math.min(maxParkNanos, parkNanos * 2);
        }
    }
}
