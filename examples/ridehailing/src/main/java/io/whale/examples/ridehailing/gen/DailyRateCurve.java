package io.whale.examples.ridehailing.gen;

import java.util.SplittableRandom;

/**
 * Order arrivals as a Poisson process whose rate follows the hour of day (Chengdu local time,
 * UTC+8): quiet at night, a morning peak around 8-9 h and an evening peak around 17-19 h.
 */
final class DailyRateCurve {
    /** Relative order rate per local hour 0..23; the mean is 1. */
    private static final double[] HOURLY = normalise(new double[] {
            0.55, 0.35, 0.22, 0.15, 0.12, 0.18, 0.45, 0.95, 1.55, 1.60, 1.25, 1.15,
            1.25, 1.20, 1.10, 1.15, 1.30, 1.65, 1.75, 1.45, 1.25, 1.15, 1.00, 0.80});
    private static final long UTC_OFFSET_S = 8 * 3600;

    private final double ordersPerDay;

    DailyRateCurve(double ordersPerDay) {
        this.ordersPerDay = ordersPerDay;
    }

    /** Orders per second at unix time {@code ts}. */
    double ratePerSecond(long ts) {
        return ordersPerDay / 86_400.0 * HOURLY[hourOfDay(ts)];
    }

    static double relativeRate(int hour) {
        return HOURLY[hour];
    }

    static int hourOfDay(long ts) {
        return (int) Math.floorMod((ts + UTC_OFFSET_S) / 3600, 24L);
    }

    /**
     * The next arrival time after {@code t} (seconds, fractional). Exact for a piecewise-constant rate:
     * an exponential gap is drawn at the current hour's rate and, because the process is memoryless,
     * drawn again from the hour boundary when it would cross it.
     */
    double nextArrival(double t, SplittableRandom random) {
        while (true) {
            double rate = ratePerSecond((long) Math.floor(t));
            double gap = -Math.log(1 - random.nextDouble()) / rate;
            double hourEnd = (Math.floor((t + UTC_OFFSET_S) / 3600) + 1) * 3600 - UTC_OFFSET_S;
            if (t + gap < hourEnd) {
                return t + gap;
            }
            t = hourEnd;
        }
    }

    private static double[] normalise(double[] weights) {
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        double[] out = new double[weights.length];
        for (int i = 0; i < weights.length; i++) {
            out[i] = weights[i] * weights.length / sum;
        }
        return out;
    }
}
