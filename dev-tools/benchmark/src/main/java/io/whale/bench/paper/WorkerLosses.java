package io.whale.bench.paper;

import io.whale.bench.WorkerCounterLog;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a run's workers counted as lost, summed over them from each worker's last console report (its shutdown's):
 * tuples dropped for a stalled frame window, relay tuples lost, RDMA messages dropped. At most once each can be a record
 * the sink never counts, so a run whose drains never completed says here which of them took its records; stock
 * Storm's workers have none of these counters.
 */
final class WorkerLosses {
    static final List<String> COUNTERS = List.of("woc-tuples-dropped-stalled", "relay-tuples-lost", "rdma-messages-dropped");

    private WorkerLosses() {
    }

    /** The counters of {@link #COUNTERS} that some worker counted in its last report, summed; empty when none did. */
    static Map<String, Long> of(List<List<WorkerCounterLog.Report>> reports) {
        Map<String, Long> lost = new TreeMap<>();
        for (List<WorkerCounterLog.Report> worker : reports) {
            if (!worker.isEmpty()) {
                add(lost, worker.get(worker.size() - 1));
            }
        }
        return lost;
    }

    private static void add(Map<String, Long> lost, WorkerCounterLog.Report last) {
        for (String counter : COUNTERS) {
            long count = last.count(counter);
            if (count > 0) {
                lost.merge(counter, count, Long::sum);
            }
        }
    }
}
