package io.whale.bench;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * What happened between two readings of the report folder: orders emitted and delivered per second (each
 * task's count difference over its own report times), the end-to-end latency of the deliveries in between
 * (difference of the cumulative histograms) and the worker pids.
 */
record Window(double emittedPerSecond, double deliveriesPerSecond, long emitted, long delivered, Histogram latencyMicros,
              long spoutPid, Set<Long> workerPids) {

    /** Whether every task of {@code end} has reported again since {@code start}: else the window has no rate for it. */
    static boolean everyTaskReportedSince(Collection<TaskReport> start, Collection<TaskReport> end) {
        Map<Integer, Long> before = start.stream().collect(Collectors.toMap(TaskReport::task, TaskReport::timeMicros));
        return end.size() == start.size()
            && end.stream().allMatch(r -> before.containsKey(r.task()) && r.timeMicros() > before.get(r.task()));
    }

    static Window between(Collection<TaskReport> start, Collection<TaskReport> end) {
        Map<Integer, TaskReport> before = start.stream().collect(Collectors.toMap(TaskReport::task, Function.identity()));
        double emittedRate = 0;
        double deliveryRate = 0;
        long emitted = 0;
        long delivered = 0;
        long spoutPid = -1;
        Histogram latency = new Histogram(3);
        Set<Long> pids = new TreeSet<>();
        for (TaskReport after : end) {
            TaskReport first = before.get(after.task());
            if (first == null || first.pid() != after.pid()) {
                throw new IllegalStateException("task " + after.task() + " has no earlier report from the same worker");
            }
            long count = after.count() - first.count();
            double rate = count / ((after.timeMicros() - first.timeMicros()) / 1e6);
            pids.add(after.pid());
            if (after.role() == TaskReport.Role.SPOUT) {
                emitted += count;
                emittedRate += rate;
                spoutPid = after.pid();
            } else {
                delivered += count;
                deliveryRate += rate;
                Histogram h = after.latencyMicros().copy();
                h.subtract(first.latencyMicros());
                latency.add(h);
            }
        }
        return new Window(emittedRate, deliveryRate, emitted, delivered, latency, spoutPid, pids);
    }
}
