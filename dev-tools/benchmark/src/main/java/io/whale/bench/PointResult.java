package io.whale.bench;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The figures of one point, as printed and saved. Latencies in milliseconds, CPU in microseconds.
 * {@code hostLinkBytes}: on emulated hosts, what each host's link sent and received in the window (empty on
 * loopback); the wire bytes are then those its spout's host sent. {@code backlogGrowthPerSecond}: how fast the orders waiting for a matcher grew during the window (emitted minus
 * the mean delivered per matcher, per second); near 0 when the matchers keep up with the spout.
 * {@code serializationsPerEmittedTuple} and {@code framesPerEmittedTuple} come from the spout worker's Whale
 * counters ({@code spoutWorkerCounters}); null where the worker made no WOC emit (WOC off, or the one-worker ceiling).
 * {@code threadCpuPercent}: the CPU the topology's workers used in the window by thread role, in percent of one
 * core ({@link ThreadCpu}). {@code machineCoresBusy}: the machine's cores kept busy in the window (every JVM of the
 * cluster shares them); {@code sourceLinkMbit}: what the spout's host's link sent, in Mbit/s (NaN on loopback) — the
 * two say whether the CPU or the link bound the point. {@code wireBytesPerBroadcast}: the wire bytes per order
 * delivered to every matcher (the deliveries over P), which unlike the bytes per emitted order does not depend on the
 * spout's emits and the deliveries being in step within the window (a spout held by a full window emits in bursts).
 * {@code hostCores}: with {@code --host-cpus}, the cores each emulated host used in the window, host 0 first (empty
 * when the hosts share the machine's).
 */
record PointResult(int matchers, int workers, String system, String transport, String waitSetting, double offeredRatePerSecond,
                   int repeat, boolean ceiling, String label,
                   double emittedPerSecond, double deliveriesPerSecond, double backlogGrowthPerSecond, double deliveriesPerEmitted, double sourceCpuMicrosPerTuple,
                   double wireBytesPerTuple, double p50Millis, double p99Millis, double maxMillis, long latencySamples,
                   int workerProcesses, double windowSeconds, String start, double loadAverage1m,
                   Double serializationsPerEmittedTuple, Double framesPerEmittedTuple, WorkerCounters spoutWorkerCounters,
                   List<HostLinks.LinkBytes> hostLinkBytes, Map<String, Double> threadCpuPercent, double machineCoresBusy,
                   double sourceLinkMbit, double wireBytesPerBroadcast, List<Double> hostCores) {

    static PointResult of(BenchPoint point, Window window, double windowSeconds, double spoutCpuSeconds, long wireBytes,
                          WorkerCounters spoutWorkerCounters, String start, double loadAverage1m,
                          List<HostLinks.LinkBytes> hostLinkBytes, Map<String, Double> threadCpuPercent, double machineCoresBusy,
                          List<Double> hostCores) {
        double emittedPerSecond = window.emittedPerSecond();
        double perTuple = 1 / (emittedPerSecond * windowSeconds);
        return new PointResult(point.matchers(), point.workers(), point.ceiling() ? "ceiling" : point.system().option(),
            point.transport(), point.waitSetting().option(), point.ratePerSecond(), point.repeat(), point.ceiling(), point.label(),
            emittedPerSecond, window.deliveriesPerSecond(),
            (window.emitted() - (double) window.delivered() / point.matchers()) / windowSeconds,
            window.deliveriesPerSecond() / emittedPerSecond,
            spoutCpuSeconds * 1e6 * perTuple, wireBytes * perTuple, millis(window.latencyMicros().getValueAtPercentile(50)),
            millis(window.latencyMicros().getValueAtPercentile(99)), millis(window.latencyMicros().getMaxValue()),
            window.latencyMicros().getTotalCount(), window.workerPids().size(), windowSeconds, start, loadAverage1m,
            spoutWorkerCounters.perEmittedTuple(WorkerCounters.SERIALIZATIONS),
            spoutWorkerCounters.perEmittedTuple(WorkerCounters.FRAMES_SENT), spoutWorkerCounters, hostLinkBytes,
            threadCpuPercent, machineCoresBusy, hostLinkBytes.isEmpty() ? Double.NaN : wireBytes * 8e-6 / windowSeconds,
            (double) wireBytes * point.matchers() / window.delivered(), List.copyOf(hostCores));
    }

    private static double millis(long micros) {
        return micros / 1000.0;
    }

    static final String HEADER = String.format("%-30s %4s %3s %12s %14s %10s %8s %12s %12s %10s %10s %9s %9s %5s %6s %6s %8s %9s",
        "run", "P", "#", "emitted/s", "deliveries/s", "backlog/s", "del/emit", "cpu us/tup", "wire B/tup", "p50 ms", "p99 ms",
        "ser/emit", "frm/emit", "procs", "load", "cores", "link Mb", "B/bcast");

    String row() {
        return String.format("%-30s %4d %3d %12.0f %14.0f %10.0f %8.2f %12.2f %12.1f %10.2f %10.1f %9s %9s %5d %6.2f %6.2f %8s %9.1f", label,
            matchers, repeat, emittedPerSecond, deliveriesPerSecond, backlogGrowthPerSecond, deliveriesPerEmitted,
            sourceCpuMicrosPerTuple, wireBytesPerTuple, p50Millis, p99Millis, ratio(serializationsPerEmittedTuple),
            ratio(framesPerEmittedTuple), workerProcesses, loadAverage1m, machineCoresBusy,
            Double.isNaN(sourceLinkMbit) ? "-" : String.format("%.2f", sourceLinkMbit), wireBytesPerBroadcast);
    }

    /**
     * The row; a line with where the workers' CPU went (percent of one core, by thread role); then a warning line if
     * the spout's worker counted dropped or malformed messages.
     */
    String rowWithWarnings() {
        String rows = threadCpuPercent.isEmpty() ? row() : row() + "\n  thread CPU %: " + threadCpuPercent.entrySet()
            .stream().limit(8).map(e -> e.getKey() + " " + Math.round(e.getValue())).collect(Collectors.joining(", "));
        if (hostCores != null && !hostCores.isEmpty()) {
            rows += "\n  cores used by host 0.." + (hostCores.size() - 1) + ": "
                + hostCores.stream().map(c -> String.format("%.2f", c)).collect(Collectors.joining(", "));
        }
        List<String> failures = spoutWorkerCounters.failures();
        return failures.isEmpty() ? rows : rows + "\n  ! the spout's worker counted " + String.join(", ", failures)
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
