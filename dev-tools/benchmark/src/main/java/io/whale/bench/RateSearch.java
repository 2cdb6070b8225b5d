package io.whale.bench;

import java.util.OptionalDouble;

/**
 * The search for a system's sustainable rate, the highest offered (Poisson) rate it keeps up with, as shares of its
 * measured capacity C (the rate it drains a standing backlog at, or emits at unpaced): pure, each probe's verdict
 * passed in. The first probe is at 0.9 C; while none has kept up the probes step down by 0.2 C (0.7, 0.5, ...); while
 * every one has, they step up by 0.2 C, 0.4 C, 0.8 C, ... (1.1, 1.5, 2.3, ...: a paced rate can be carried well above
 * what an overloaded system drained a backlog at); once both happened, they halve the gap between the highest share
 * that kept up and the lowest that did not, until it is 0.1 C or less or the probes allowed are spent. A search whose
 * probes all kept up is not over when they are spent: it goes on, as many probes again at most, until one falls
 * behind, so that the rate it reports is bounded by one the system did not keep up with rather than by the number of
 * probes. The sustainable share is the highest that kept up (0 when none did). Both drivers search so
 * ({@code bench-paper.sh}, {@code bench-woc.sh --find-sustainable}), and judge a probe by {@link #keptUp}: a probe
 * costs a settle, a measurement and a drain on a shaped link, and most systems keep up near their capacity, so the
 * search starts there.
 */
public final class RateSearch {
    /** A probe kept up when its backlog grew by less than this share of its offered rate (committed within 5 %). */
    public static final double FLAT_BACKLOG_SHARE = 0.05;
    static final double FIRST_SHARE = 0.9;
    static final double STEP = 0.2;
    static final double RESOLUTION = 0.1;
    private static final double EPSILON = 1e-9;

    private final int maxProbes;
    private int probes;
    private double highestKept;
    private double lowestFailed = Double.POSITIVE_INFINITY;

    public RateSearch(int maxProbes) {
        if (maxProbes < 0) {
            throw new IllegalArgumentException("probes " + maxProbes);
        }
        this.maxProbes = maxProbes;
    }

    /** The share of C to probe next; empty when the search is over. */
    public OptionalDouble next() {
        if (probes == 0) {
            return maxProbes > 0 ? OptionalDouble.of(FIRST_SHARE) : OptionalDouble.empty();
        }
        if (highestKept == 0) {
            double lower = lowestFailed - STEP;
            return probes < maxProbes && lower > EPSILON ? OptionalDouble.of(round(lower)) : OptionalDouble.empty();
        }
        if (lowestFailed == Double.POSITIVE_INFINITY) {
            // every probe so far kept up: each step up twice the last
            return probes < 2 * maxProbes
                ? OptionalDouble.of(round(highestKept + STEP * (1L << (probes - 1)))) : OptionalDouble.empty();
        }
        return probes < maxProbes && lowestFailed - highestKept > RESOLUTION + EPSILON
            ? OptionalDouble.of(round((highestKept + lowestFailed) / 2)) : OptionalDouble.empty();
    }

    /** What the probe at {@code share} of C showed. */
    public void record(double share, boolean keptUp) {
        probes++;
        if (keptUp) {
            highestKept = Math.max(highestKept, share);
        } else {
            lowestFailed = Math.min(lowestFailed, share);
        }
    }

    /** The highest share that kept up; 0 when none did. */
    public double sustainedShare() {
        return highestKept;
    }

    /**
     * Whether a paced phase offered {@code offeredPerSecond} kept up: its backlog grew by at most
     * {@value #FLAT_BACKLOG_SHARE} of that and its latency's 99th percentile (negative: none measured) is within the bound.
     */
    public static boolean keptUp(double offeredPerSecond, double backlogGrowthPerSecond, double p99Millis, double p99BoundMillis) {
        return backlogGrowthPerSecond <= FLAT_BACKLOG_SHARE * offeredPerSecond && p99Millis >= 0 && p99Millis <= p99BoundMillis;
    }

    private static double round(double share) {
        return Math.round(share * 1e6) / 1e6;
    }
}
