package io.whale.bench;

import java.util.List;

/**
 * The figures of one point, as printed and saved. Latencies in milliseconds, CPU in microseconds.
 * {@code serializationsPerEmittedTuple} and {@code framesPerEmittedTuple} come from the spout worker's Whale
 * counters ({@code spoutWorkerCounters}); null where the worker made no WOC emit (WOC off, or the one-worker ceiling).
 */
record PointResult(int matchers, int workers, boolean woc, String transport, boolean ceiling, String label,
                   double emittedPerSecond, double deliveriesPerSecond, double deliveriesPerEmitted, double sourceCpuMicrosPerTuple,
                   double wireBytesPerTuple, double p50Millis, double p99Millis, double maxMillis, long latencySamples,
                   int workerProcesses, double windowSeconds, String start, double loadAverage1m,
                   Double serializationsPerEmittedTuple, Double framesPerEmittedTuple, WorkerCounters spoutWorkerCounters) {

    static PointResult of(BenchPoint point, Window window, double windowSeconds, double spoutCpuSeconds, long loopbackBytes,
                          WorkerCounters spoutWorkerCounters, String start, double loadAverage1m) {
        double emittedPerSecond = window.emittedPerSecond();
        double perTuple = 1 / (emittedPerSecond * windowSeconds);
        return new PointResult(point.matchers(), point.workers(), point.woc(), point.transport(), point.ceiling(), point.label(),
            emittedPerSecond, window.deliveriesPerSecond(), window.deliveriesPerSecond() / emittedPerSecond,
            spoutCpuSeconds * 1e6 * perTuple, loopbackBytes * perTuple, millis(window.latencyMicros().getValueAtPercentile(50)),
            millis(window.latencyMicros().getValueAtPercentile(99)), millis(window.latencyMicros().getMaxValue()),
            window.latencyMicros().getTotalCount(), window.workerPids().size(), windowSeconds, start, loadAverage1m,
            spoutWorkerCounters.perEmittedTuple(WorkerCounters.SERIALIZATIONS),
            spoutWorkerCounters.perEmittedTuple(WorkerCounters.FRAMES_SENT), spoutWorkerCounters);
    }

    private static double millis(long micros) {
        return micros / 1000.0;
    }

    static final String HEADER = String.format("%-22s %4s %12s %14s %8s %12s %12s %10s %10s %9s %9s %5s %6s",
        "run", "P", "emitted/s", "deliveries/s", "del/emit", "cpu us/tup", "wire B/tup", "p50 ms", "p99 ms", "ser/emit",
        "frm/emit", "procs", "load");

    String row() {
        return String.format("%-22s %4d %12.0f %14.0f %8.2f %12.2f %12.1f %10.2f %10.1f %9s %9s %5d %6.2f", label, matchers,
            emittedPerSecond, deliveriesPerSecond, deliveriesPerEmitted, sourceCpuMicrosPerTuple, wireBytesPerTuple, p50Millis,
            p99Millis, ratio(serializationsPerEmittedTuple), ratio(framesPerEmittedTuple), workerProcesses, loadAverage1m);
    }

    /** The row, then a warning line if the spout's worker counted dropped or malformed messages. */
    String rowWithWarnings() {
        List<String> failures = spoutWorkerCounters.failures();
        return failures.isEmpty() ? row() : row() + "\n  ! the spout's worker counted " + String.join(", ", failures)
            + " (" + spoutWorkerCounters.mode() + "): these figures do not measure a working transport";
    }

    private static String ratio(Double value) {
        return value == null ? "-" : String.format("%.3f", value);
    }

    static String table(List<PointResult> results) {
        StringBuilder s = new StringBuilder(HEADER).append('\n');
        results.forEach(r -> s.append(r.rowWithWarnings()).append('\n'));
        return s.toString();
    }
}
