package io.whale.bench;

/**
 * One interval of a rate-step run: its middle, in seconds after the schedule began; the orders the spout emitted
 * per second; the deliveries per second summed over the P matchers and divided by P (orders delivered to every
 * matcher per second, the figure to hold against the offered rate); the end-to-end latency of the interval's
 * deliveries; the machine's cores kept busy (every JVM of the cluster shares them); and what the spout's host's
 * link sent, in Mbit/s (NaN without emulated hosts) — so that a run says whether the CPU or the link bound it.
 */
public record RateStepSample(double atSeconds, double emittedPerSecond, double broadcastsPerSecond, double p50Millis, double p99Millis,
                      double cpuCoresBusy, double sourceLinkMbit) {

    static RateStepSample of(double atSeconds, Window window, int matchers, double cpuCoresBusy, double sourceLinkMbit) {
        boolean any = window.latencyMicros().getTotalCount() > 0;
        return new RateStepSample(atSeconds, window.emittedPerSecond(), window.deliveriesPerSecond() / matchers,
            any ? window.latencyMicros().getValueAtPercentile(50) / 1e3 : 0, any ? window.latencyMicros().getValueAtPercentile(99) / 1e3 : 0,
            cpuCoresBusy, sourceLinkMbit);
    }
}
