package io.whale.multicast.sim;

import java.util.Arrays;

/** A piecewise-constant input rate λ(t): {@code rates[i]} tuples per second from {@code startsNanos[i]} on. */
public record RateProfile(long[] startsNanos, double[] rates) {
    public RateProfile {
        if (startsNanos.length == 0 || startsNanos.length != rates.length || startsNanos[0] != 0) {
            throw new IllegalArgumentException("need matching steps, the first starting at 0");
        }
        for (int i = 0; i < rates.length; i++) {
            if (!(rates[i] >= 0) || (i > 0 && startsNanos[i] <= startsNanos[i - 1])) {
                throw new IllegalArgumentException("rates must be >= 0 and steps strictly increasing");
            }
        }
        startsNanos = startsNanos.clone();
        rates = rates.clone();
    }

    public static RateProfile constant(double rate) {
        return new RateProfile(new long[] {0}, new double[] {rate});
    }

    /** The paper's Fig. 23/24 input: 30k → 60k → 80k → 100k → 80k tuples/s, a step every {@code stepSeconds}. */
    public static RateProfile paperSteps(double stepSeconds) {
        long step = (long) (stepSeconds * 1e9);
        return new RateProfile(new long[] {0, step, 2 * step, 3 * step, 4 * step},
                new double[] {30_000, 60_000, 80_000, 100_000, 80_000});
    }

    public double rateAt(long nanos) {
        int i = Arrays.binarySearch(startsNanos, nanos);
        return rates[i >= 0 ? i : -i - 2];
    }

    /** The first step strictly after {@code nanos}, or Long.MAX_VALUE. */
    public long nextChangeAfter(long nanos) {
        int i = Arrays.binarySearch(startsNanos, nanos);
        int next = i >= 0 ? i + 1 : -i - 1;
        return next < startsNanos.length ? startsNanos[next] : Long.MAX_VALUE;
    }
}
