package io.whale.bench.paper;

import java.util.OptionalDouble;

/**
 * The search for a system's sustainable rate, as shares of its measured capacity C (the rate it drains a standing
 * backlog at): pure, each probe's verdict passed in. The first probe is at 0.9 C; while none has kept up the probes
 * step down by 0.2 C (0.7, 0.5, ...); while every one has, they step up by 0.2 C (1.1, 1.3, ...: a paced rate can be
 * carried above what a backlog drained at); once both happened, they halve the gap between the highest share that
 * kept up and the lowest that did not, until it is 0.1 C or less or the probes allowed are spent. The sustainable
 * share is the highest that kept up (0 when none did).
 * <p>
 * Not {@code io.whale.bench.SustainableSearch} (bench-woc.sh's bisection from half the unpaced rate, always every
 * probe): a probe here costs a settle, a measurement and a drain on a shaped link, and most systems keep up near
 * their capacity, so the search starts there and one probe is often all it takes.
 */
final class RateSearch {
    static final double FIRST_SHARE = 0.9;
    static final double STEP = 0.2;
    static final double RESOLUTION = 0.1;
    private static final double EPSILON = 1e-9;

    private final int maxProbes;
    private int probes;
    private double highestKept;
    private double lowestFailed = Double.POSITIVE_INFINITY;

    RateSearch(int maxProbes) {
        if (maxProbes < 0) {
            throw new IllegalArgumentException("probes " + maxProbes);
        }
        this.maxProbes = maxProbes;
    }

    /** The share of C to probe next; empty when the search is over. */
    OptionalDouble next() {
        if (probes >= maxProbes) {
            return OptionalDouble.empty();
        }
        if (probes == 0) {
            return OptionalDouble.of(FIRST_SHARE);
        }
        if (highestKept == 0) {
            double lower = lowestFailed - STEP;
            return lower > EPSILON ? OptionalDouble.of(round(lower)) : OptionalDouble.empty();
        }
        if (lowestFailed == Double.POSITIVE_INFINITY) {
            return OptionalDouble.of(round(highestKept + STEP));
        }
        return lowestFailed - highestKept > RESOLUTION + EPSILON ? OptionalDouble.of(round((highestKept + lowestFailed) / 2))
            : OptionalDouble.empty();
    }

    /** What the probe at {@code share} of C showed. */
    void record(double share, boolean keptUp) {
        probes++;
        if (keptUp) {
            highestKept = Math.max(highestKept, share);
        } else {
            lowestFailed = Math.min(lowestFailed, share);
        }
    }

    /** The highest share that kept up; 0 when none did. */
    double sustainedShare() {
        return highestKept;
    }

    private static double round(double share) {
        return Math.round(share * 1e6) / 1e6;
    }
}
