package io.whale.bench.paper;

/**
 * A paced phase of a run measured: the Poisson rate asked for, what the feed offered and the topology consumed
 * (committed offsets) per second, how fast the backlog grew, and the processing latency (source emit to the sink's
 * reporter) of the results reported in the window: mean, median and 99th percentile, over {@code results} results.
 */
record PhaseResult(double ratePerSecond, double offeredPerSecond, double consumedPerSecond, double backlogGrowthPerSecond,
                   double meanMillis, double p50Millis, double p99Millis, long results) {
    /** The backlog stayed flat: it grew by less than {@code share} of the offered rate. */
    boolean sustained(double share) {
        return backlogGrowthPerSecond <= share * offeredPerSecond;
    }
}
