package io.whale.bench;

import java.util.OptionalDouble;

/**
 * The search for a system's sustainable rate, the highest offered (Poisson) rate it keeps up with, as shares of its
 * measured capacity C (the rate it drains a standing backlog at, or emits at unpaced): pure, each probe's verdict
 * passed in. The first probe is at 0.9 C; while none has kept up the probes step down by 0.2 C (0.7, 0.5, ...); while
 * every one has, they step up by 0.2 C, 0.4 C, 0.8 C, ... (1.1, 1.5, 2.3, ...: a paced rate can be carried well above
 * what an overloaded system drained a backlog at). A search whose probes all kept up is not over when the probes
 * allowed are spent: it goes on, as many probes again at most, until one falls behind, so that the rate it reports is
 * bounded by one the system did not keep up with rather than by the number of probes. Once a probe kept up and one
 * fell behind, they halve the bracket between the highest share that kept up and the lowest that did not until that
 * one lies at most {@value #BRACKET} of itself above the other, past the probes allowed if need be (each halving halves
 * the bracket, so few do): a step up lands anywhere in a bracket as wide as 1.75 to 1, and the rate reported is its
 * bottom.
 * A probe that started behind a backlog its drain gave up on says nothing ({@link #undrained}): it runs again at the
 * same share, once a search. The sustainable share is the highest that kept up (0 when none did). Both drivers search
 * so ({@code bench-paper.sh}, {@code bench-woc.sh --find-sustainable}), and judge a probe by {@link #keptUp}: a probe
 * costs a settle, a measurement and a drain on a shaped link, and most systems keep up near their capacity, so the
 * search starts there.
 */
public final class RateSearch {
    /** A probe kept up when its backlog grew by less than this share of its offered rate (committed within 5 %). */
    public static final double FLAT_BACKLOG_SHARE = 0.05;
    static final double FIRST_SHARE = 0.9;
    static final double STEP = 0.2;
    /** The bracket is narrow enough once the share that fell behind is at most this share above the one that kept up. */
    static final double BRACKET = 0.15;
    private static final double EPSILON = 1e-9;

    private final int maxProbes;
    private int probes;
    private boolean repeated;
    private double repeat = Double.NaN;
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
        if (!Double.isNaN(repeat)) {
            return OptionalDouble.of(repeat);
        }
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
        return lowestFailed > (1 + BRACKET) * highestKept + EPSILON
            ? OptionalDouble.of(round((highestKept + lowestFailed) / 2)) : OptionalDouble.empty();
    }

    /** What the probe at {@code share} of C showed. */
    public void record(double share, boolean keptUp) {
        probes++;
        repeat = Double.NaN;
        if (keptUp) {
            highestKept = Math.max(highestKept, share);
        } else {
            lowestFailed = Math.min(lowestFailed, share);
        }
    }

    /**
     * The probe at {@code share} of C started behind a backlog the drain before it gave up on, so what it consumed was
     * partly that backlog's: it runs again at the same share after another drain; a second such probe in a search is
     * taken for one that fell behind (the system does not drain in twice the time allowed).
     */
    public void undrained(double share) {
        if (repeated) {
            record(share, false);
        } else {
            repeated = true;
            repeat = share;
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
