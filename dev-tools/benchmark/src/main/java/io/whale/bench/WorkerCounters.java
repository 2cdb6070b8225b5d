package io.whale.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Whale's counters of the spout's worker over a point, as saved in results.json. {@code mode}: {@code delta} =
 * the difference between the reporter's last report before the window and its last report at the window's end
 * ({@code from}, {@code to}, {@code seconds} apart: the reporter's period shifts them by up to a second from the
 * window); {@code cumulative} = the values of the last report since the worker started, when there was no
 * earlier report to subtract; {@code none} = no report found.
 */
record WorkerCounters(String mode, String from, String to, Double seconds, Map<String, Long> counters) {
    static final String EMITS = "woc-emits";
    static final String SERIALIZATIONS = "woc-serializations";
    static final String FRAMES_SENT = "woc-frames-sent";

    static WorkerCounters none() {
        return new WorkerCounters("none", null, null, null, Map.of());
    }

    static WorkerCounters between(Optional<WorkerCounterLog.Report> before, Optional<WorkerCounterLog.Report> after) {
        if (after.isEmpty()) {
            return none();
        }
        WorkerCounterLog.Report end = after.get();
        if (before.isEmpty() || !before.get().time().isBefore(end.time())) {
            return new WorkerCounters("cumulative", null, end.time().toString(), null, new TreeMap<>(end.counters()));
        }
        WorkerCounterLog.Report start = before.get();
        Map<String, Long> delta = new TreeMap<>();
        // A counter registered after the first report (a destination worker's byte counter) started from 0.
        end.counters().forEach((name, count) -> delta.put(name, count - start.counters().getOrDefault(name, 0L)));
        return new WorkerCounters("delta", start.time().toString(), end.time().toString(),
            Duration.between(start.time(), end.time()).toMillis() / 1000.0, delta);
    }

    /** Counters that stay 0 while the transport and the WOC receive path work. */
    static final List<String> FAILURES = List.of("rdma-messages-dropped", "rdma-messages-malformed", "woc-frames-malformed");

    /** The {@link #FAILURES} counters that are not 0, as "name=count" ("rdma-messages-dropped=15407"). */
    List<String> failures() {
        return FAILURES.stream().filter(f -> counters.getOrDefault(f, 0L) > 0).map(f -> f + "=" + counters.get(f)).toList();
    }

    /** COUNTER per WOC emit (an emit that went through the WOC send path); null without WOC emits. */
    Double perEmittedTuple(String counter) {
        Long emits = counters.get(EMITS);
        Long count = counters.get(counter);
        return emits == null || emits == 0 || count == null ? null : (double) count / emits;
    }
}
