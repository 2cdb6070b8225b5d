package io.whale.bench;

import java.util.List;

/**
 * One interval of a rate-step run: its middle, in seconds after the schedule began; the orders the spout emitted
 * per second; the deliveries per second summed over the P matchers and divided by P (orders delivered to every
 * matcher per second, the figure to hold against the offered rate); the end-to-end latency of the interval's
 * deliveries; the machine's cores kept busy (every JVM of the cluster shares them); what the spout's host's
 * link sent, in Mbit/s (NaN without emulated hosts); and with {@code --host-cpus} the cores the spout's host used and
 * those of every host, host 0 first (NaN and empty without, and in a run saved before they were read) — so that a run
 * says whether a host's CPU, the machine's or the link bound it.
 */
public record RateStepSample(double atSeconds, double emittedPerSecond, double broadcastsPerSecond, double p50Millis, double p99Millis,
                      double cpuCoresBusy, double sourceLinkMbit, Double sourceHostCores, List<Double> hostCores) {
    public RateStepSample {
        sourceHostCores = sourceHostCores == null ? Double.NaN : sourceHostCores;
        hostCores = hostCores == null ? List.of() : List.copyOf(hostCores);
    }

    static RateStepSample of(double atSeconds, Window window, int matchers, double cpuCoresBusy, double sourceLinkMbit) {
        boolean any = window.latencyMicros().getTotalCount() > 0;
        return new RateStepSample(atSeconds, window.emittedPerSecond(), window.deliveriesPerSecond() / matchers,
            any ? window.latencyMicros().getValueAtPercentile(50) / 1e3 : 0, any ? window.latencyMicros().getValueAtPercentile(99) / 1e3 : 0,
            cpuCoresBusy, sourceLinkMbit, Double.NaN, List.of());
    }
}
