package io.whale.distribution;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.examples.smoke.PacedBolt;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Backpressure through a relay ({@link BackpressureRun}) on four emulated hosts ({@code local-cluster up --hosts 4}),
 * relay trees on ({@code whale.multicast.structure: binomial}): the source's tree over the three other workers has
 * one relay with one child, and the task that turns slow is the child's, so every tuple it gets has passed the relay.
 * The spout must be held to the slow task's pace with the backlog bounded by the queues on the way, the relay must
 * forward and hold no more than the source's frame window, and no worker's heap may grow: over Storm's SASL (the shared
 * cluster's) and over Storm's TLS as well (the topology's own; Nimbus keeps the cluster's SASL on), the frame window
 * holding in both.
 */
@SharedCluster.On(SharedCluster.Shape.FOUR_HOSTS)
class RelayBackpressureClusterIT {
    private static final String NAME = "bp-relay";
    private static final int HOSTS = 4;
    private static final int TASKS = 4;
    /**
     * A relay never blocks: what its transfer queue cannot take goes to the overflow. So what the relay can hold is
     * bounded by the source's frame window (credit for a frame comes back from the relay only once its child has
     * the frame's tuples in its executors' queues), and what waits between the spout and the slow task by the spout
     * worker's queues plus one more worker's: the relay's transfer queue and Netty write buffer.
     */
    private static final BackpressureRun.Bounds BOUNDS = BackpressureRun.Bounds.beyondTheSpoutWorker(BackpressureRun.WORKER_QUEUES);
    /** From the tree's first frame to the slow-down: the four workers warm up, then the spout's own pace is measured. */
    private static final int WARM_UP_SECS = 10;
    /** {@code whale.woc.window.tuples}, the frame window per connection (tuples). */
    private static final int WINDOW_TUPLES = 4_096;

    @Test
    void shouldHoldTheSpoutToASlowTaskBehindARelayWithBoundedMemoryAtTheRelayOverSaslAndTls(PrivateLocalCluster cluster) throws Exception {
        List<String> addresses = new ArrayList<>();
        cluster.status().path("hosts").forEach(h -> addresses.add(h.path("address").asText()));
        WorkerLogs overSasl = measure(cluster, NAME + "-sasl", List.of());
        assertTrue(overSasl.contains(SecuredTransport.SASL_CONNECTED), "the relay tree over SASL (the shared cluster's)");
        WorkerLogs overTls = measure(cluster, NAME + "-tls", SecuredTransport.tlsTopology(SecuredTransport.keystore(cluster.dir(), addresses)));
        assertTrue(overTls.contains(SecuredTransport.TLS_CLIENT), "the relay tree over TLS");
    }

    /** One run named {@code name} with {@code security} on top of the tree's settings: bounded, the relay within the window. */
    private static WorkerLogs measure(PrivateLocalCluster cluster, String name, List<String> security) throws Exception {
        AtomicReference<WorkerLogs.RelayEdge> edge = new AtomicReference<>();
        List<String> conf = new ArrayList<>(List.of("whale.woc.enabled=true", "whale.multicast.structure=binomial",
            "whale.woc.window.tuples=" + WINDOW_TUPLES));
        conf.addAll(security);
        BackpressureRun.Measurement m = BackpressureRun.measure(cluster, name, TASKS, HOSTS, conf,
            List.of("--slow-worker", PacedBolt.NAMED, "--slow-after-secs", String.valueOf(WARM_UP_SECS)), BackpressureRun.WINDOW, BOUNDS, reports -> {
                await("the source's tree logged").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250))
                    .until(() -> cluster.workerLogs(name).firstRelayEdge().isPresent());
                edge.set(cluster.workerLogs(name).firstRelayEdge().orElseThrow());
                System.out.println("source's tree: " + edge.get().tree() + "; slowing the first task of " + edge.get().child());
                Path named = reports.resolve(PacedBolt.SLOW_WORKER_FILE + ".new");
                Files.writeString(named, edge.get().childPort() + "\n");
                Files.move(named, reports.resolve(PacedBolt.SLOW_WORKER_FILE), StandardCopyOption.ATOMIC_MOVE);
            });
        WorkerLogs logs = m.logs();
        String losses = String.format("relay-tuples-lost %d (relay-children-stalled %d, relay-children-disconnected %d, relay-repairs %d)",
            logs.lastCountIfPrinted("relay-tuples-lost"), logs.lastCountIfPrinted("relay-children-stalled"),
            logs.lastCountIfPrinted("relay-children-disconnected"), logs.lastCountIfPrinted("relay-repairs"));
        System.out.printf("%s: relay-frames-forwarded %d, %s, largest relay-held-tuples printed %d%n", name,
            logs.lastCount("relay-frames-forwarded"), losses, logs.largestGauge("relay-held-tuples"));
        assertTrue(logs.lastCount("relay-frames-forwarded") > 0, name + ": the relay forwarded nothing");
        assertTrue(logs.lastCountIfPrinted("relay-tuples-lost") <= 0, name + ": tuples lost along the tree: " + losses);
        assertTrue(logs.largestGauge("relay-held-tuples") <= WINDOW_TUPLES, name + ": a relay held more than the source's window");
        assertEquals(0, logs.lastCount("woc-frames-malformed"), name);
        SecuredTransport.assertWindowHeld(logs, name, WINDOW_TUPLES);
        assertEquals(String.valueOf(edge.get().childPort()), m.slowTaskPort(), name + ": the slow task is the relay's child's");
        m.assertBounded(BOUNDS);
        return logs;
    }
}
