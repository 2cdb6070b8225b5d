package io.whale.bench.paper;

/**
 * A paced phase of a run measured: the Poisson rate asked for, what the feed offered and the topology consumed
 * (committed offsets) per second, how fast the backlog grew, the processing latency (source emit to the sink's
 * reporter) of the results reported in the window: mean, median and 99th percentile, over {@code results} results,
 * and whether it kept up, as the feed judged when the window closed (backlog flat, 99th percentile within the bound);
 * and the mean multicast latency over the window ({@link MulticastCounters}; NaN for Storm, or with no multicast timed).
 */
record PhaseResult(double ratePerSecond, double offeredPerSecond, double consumedPerSecond, double backlogGrowthPerSecond,
                   double meanMillis, double p50Millis, double p99Millis, long results, boolean keptUp, double multicastMillis)
    implements SustainedRate {
}
