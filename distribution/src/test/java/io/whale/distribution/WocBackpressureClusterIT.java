package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Backpressure on the real multi-process cluster ({@link BackpressureRun}): paced bolt tasks on two worker
 * processes, one task in the worker without the spout turns slow. Run with stock transfer (whale.woc.enabled=false,
 * the reference), with worker-oriented communication on, both over Storm's SASL (the shared cluster's), and with WOC
 * over Storm's TLS as well (Nimbus keeps the cluster's SASL on for every topology), on the same cluster; in each the backlog stays within the spout worker's queues and the
 * workers' heap after GC stays small, and with WOC the frame window holds whichever transport security is on.
 */
@SharedCluster.On(SharedCluster.Shape.TWO_SUPERVISORS)
class WocBackpressureClusterIT {
    private static final int TASKS = 4;
    private static final BackpressureRun.Bounds BOUNDS = BackpressureRun.Bounds.beyondTheSpoutWorker(0);
    /** {@code whale.woc.window.tuples}, the frame window per connection (tuples). */
    private static final int WINDOW_TUPLES = 4_096;

    @Test
    void aSlowTaskHoldsTheSpoutBackWithBoundedMemoryWithWocOnAndOffOverSaslAndTls(PrivateLocalCluster cluster) throws Exception {
        List<String> woc = List.of("whale.woc.enabled=true", "whale.woc.window.tuples=" + WINDOW_TUPLES);
        List<String> wocOverTls = new ArrayList<>(woc);
        wocOverTls.addAll(SecuredTransport.tlsTopology(SecuredTransport.keystore(cluster.dir(), List.of("127.0.0.1"))));
        List<BackpressureRun.Measurement> runs = new ArrayList<>();
        runs.add(BackpressureRun.measure(cluster, "bp-woc-off", TASKS, 2, List.of("whale.woc.enabled=false"), List.of(),
            BackpressureRun.WINDOW, BOUNDS, reports -> { }));
        runs.add(BackpressureRun.measure(cluster, "bp-woc-on", TASKS, 2, woc, List.of(), BackpressureRun.WINDOW, BOUNDS, reports -> { }));
        runs.add(BackpressureRun.measure(cluster, "bp-woc-tls", TASKS, 2, wocOverTls, List.of(), BackpressureRun.WINDOW, BOUNDS, reports -> { }));
        runs.forEach(m -> System.out.println("BACKPRESSURE " + m));

        WorkerLogs off = runs.get(0).logs();
        assertTrue(off.contains("Worker-oriented communication (whale.woc.enabled): off"));
        assertTrue(off.lastCountIfPrinted("woc-frames-sent") <= 0, "stock transfer sent BatchTuple frames");
        assertTrue(off.contains(SecuredTransport.SASL_CONNECTED), "stock transfer over SASL");
        for (BackpressureRun.Measurement on : runs.subList(1, 3)) {
            WorkerLogs logs = on.logs();
            assertTrue(logs.contains("Worker-oriented communication (whale.woc.enabled): on"), on.name());
            assertTrue(logs.lastCount("woc-frames-received") > 0, on.name() + ": no BatchTuple frame arrived");
            assertEquals(0, logs.lastCount("woc-frames-malformed"), on.name());
            SecuredTransport.assertWindowHeld(logs, on.name(), WINDOW_TUPLES);
        }
        assertTrue(runs.get(1).logs().contains(SecuredTransport.SASL_CONNECTED), "WOC over SASL");
        assertTrue(runs.get(2).logs().contains(SecuredTransport.TLS_CLIENT) && runs.get(2).logs().contains(SecuredTransport.SASL_CONNECTED),
            "WOC over TLS and SASL");
        for (BackpressureRun.Measurement m : runs) {
            m.assertBounded(BOUNDS);
        }
    }
}
