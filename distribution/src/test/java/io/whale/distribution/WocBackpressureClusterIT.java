package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Backpressure on the real multi-process cluster ({@link BackpressureRun}): paced bolt tasks on two worker
 * processes, one task in the worker without the spout turns slow. Run once with stock transfer
 * (whale.woc.enabled=false, the reference) and once with worker-oriented communication on, on the same cluster;
 * in both the backlog stays within the spout worker's queues and the workers' heap after GC stays small.
 */
@SharedCluster.On(SharedCluster.Shape.TWO_SUPERVISORS)
class WocBackpressureClusterIT {
    private static final int TASKS = 4;
    private static final BackpressureRun.Bounds BOUNDS = BackpressureRun.Bounds.beyondTheSpoutWorker(0);

    @Test
    void aSlowTaskHoldsTheSpoutBackWithBoundedMemoryWithWocOnAndOff(PrivateLocalCluster cluster) throws Exception {
        List<BackpressureRun.Measurement> runs = new ArrayList<>();
        runs.add(BackpressureRun.measure(cluster, "bp-woc-off", TASKS, 2, List.of("whale.woc.enabled=false"), List.of(),
            BackpressureRun.WINDOW, BOUNDS, reports -> { }));
        runs.add(BackpressureRun.measure(cluster, "bp-woc-on", TASKS, 2, List.of("whale.woc.enabled=true"), List.of(),
            BackpressureRun.WINDOW, BOUNDS, reports -> { }));
        runs.forEach(m -> System.out.println("BACKPRESSURE " + m));

        WorkerLogs off = runs.get(0).logs();
        assertTrue(off.contains("Worker-oriented communication (whale.woc.enabled): off"));
        assertTrue(off.lastCountIfPrinted("woc-frames-sent") <= 0, "stock transfer sent BatchTuple frames");
        WorkerLogs on = runs.get(1).logs();
        assertTrue(on.contains("Worker-oriented communication (whale.woc.enabled): on"));
        assertTrue(on.lastCount("woc-frames-received") > 0, "no BatchTuple frame arrived");
        assertEquals(0, on.lastCount("woc-frames-malformed"));
        for (BackpressureRun.Measurement m : runs) {
            m.assertBounded(BOUNDS);
        }
    }
}
