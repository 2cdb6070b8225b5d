package io.whale.bench;

import java.util.List;

/** The figures of one point, as printed and saved. Latencies in milliseconds, CPU in microseconds. */
record PointResult(int matchers, int workers, boolean woc, boolean ceiling, String label, double emittedPerSecond,
                   double deliveriesPerSecond, double deliveriesPerEmitted, double sourceCpuMicrosPerTuple,
                   double wireBytesPerTuple, double p50Millis, double p99Millis, double maxMillis, long latencySamples,
                   int workerProcesses, double windowSeconds, String start, double loadAverage1m) {

    static PointResult of(BenchPoint point, Window window, double windowSeconds, double spoutCpuSeconds, long loopbackBytes,
                          String start, double loadAverage1m) {
        double emittedPerSecond = window.emittedPerSecond();
        double perTuple = 1 / (emittedPerSecond * windowSeconds);
        return new PointResult(point.matchers(), point.workers(), point.woc(), point.ceiling(), point.label(), emittedPerSecond,
            window.deliveriesPerSecond(), window.deliveriesPerSecond() / emittedPerSecond, spoutCpuSeconds * 1e6 * perTuple,
            loopbackBytes * perTuple, millis(window.latencyMicros().getValueAtPercentile(50)),
            millis(window.latencyMicros().getValueAtPercentile(99)), millis(window.latencyMicros().getMaxValue()),
            window.latencyMicros().getTotalCount(), window.workerPids().size(), windowSeconds, start, loadAverage1m);
    }

    private static double millis(long micros) {
        return micros / 1000.0;
    }

    static final String HEADER = String.format("%-16s %4s %12s %14s %8s %12s %12s %10s %10s %5s %6s",
        "run", "P", "emitted/s", "deliveries/s", "del/emit", "cpu us/tup", "wire B/tup", "p50 ms", "p99 ms", "procs", "load");

    String row() {
        return String.format("%-16s %4d %12.0f %14.0f %8.2f %12.2f %12.1f %10.2f %10.1f %5d %6.2f", label, matchers,
            emittedPerSecond, deliveriesPerSecond, deliveriesPerEmitted, sourceCpuMicrosPerTuple, wireBytesPerTuple, p50Millis,
            p99Millis, workerProcesses, loadAverage1m);
    }

    static String table(List<PointResult> results) {
        StringBuilder s = new StringBuilder(HEADER).append('\n');
        results.forEach(r -> s.append(r.row()).append('\n'));
        return s.toString();
    }
}
