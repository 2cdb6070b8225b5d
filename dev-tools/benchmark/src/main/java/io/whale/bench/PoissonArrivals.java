package io.whale.bench;

import java.util.SplittableRandom;

/**
 * The arrival times of a Poisson process at a fixed rate: exponential gaps with mean 1/rate. Time is passed in
 * (nanoseconds), so the schedule is independent of how late the caller asks: arrivals that fell due while the
 * spout was held back by backpressure are still due, and their latency counts from when they arrived (no
 * coordinated omission).
 */
public final class PoissonArrivals {
    private final double meanGapNanos;
    private final SplittableRandom random;
    private long nextNanos;

    public PoissonArrivals(double ratePerSecond, long startNanos, SplittableRandom random) {
        this.meanGapNanos = 1e9 / ratePerSecond;
        this.random = random;
        this.nextNanos = startNanos;
    }

    /** The next arrival time if it is due at {@code nowNanos} (and steps past it), else {@link Long#MIN_VALUE}. */
    public long nextDue(long nowNanos) {
        if (nowNanos - nextNanos < 0) {
            return Long.MIN_VALUE;
        }
        long due = nextNanos;
        nextNanos += Math.max(1, Math.round(-Math.log(1 - random.nextDouble()) * meanGapNanos));
        return due;
    }

    /** How many arrivals fall before {@code endNanos} that were not asked for yet (and steps past them). */
    long dueBefore(long endNanos) {
        long count = 0;
        while (endNanos - nextNanos > 0) {
            nextDue(nextNanos);
            count++;
        }
        return count;
    }
}
