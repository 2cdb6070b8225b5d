package io.whale.metrics.prometheus;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.metrics.prometheus.PrometheusTargets.Target;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.storm.cluster.DaemonType;
import org.apache.storm.cluster.IStateStorage;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrometheusTargetsTest {
    private static LoopbackZooKeeper zookeeper;
    private final List<IStateStorage> sessions = new ArrayList<>();
    private Map<String, Object> conf;
    private IStateStorage storage;

    @BeforeAll
    static void startZooKeeper(@TempDir Path dataDir) throws Exception {
        zookeeper = new LoopbackZooKeeper(dataDir);
    }

    @AfterAll
    static void stopZooKeeper() {
        zookeeper.close();
    }

    @BeforeEach
    void openSession() throws Exception {
        conf = zookeeper.conf("/storm-" + UUID.randomUUID());
        storage = session(DaemonType.WORKER);
    }

    @AfterEach
    void closeSessions() {
        sessions.forEach(IStateStorage::close);
    }

    @Test
    void theNodeIsRootTopologyAndWorker() {
        assertEquals("/whale-prometheus/topo-1/host-a:6700", PrometheusTargets.path("topo-1", "host-a", 6700));
        assertEquals("host-a:9250", new Target("topo-1", "host-a", 6700, 9250, 4242L).address());
    }

    @Test
    void nothingIsPublishedBeforeTheFirstWorker() {
        assertEquals(List.of(), PrometheusTargets.read(storage));
    }

    @Test
    void everyPublishedEndpointIsReadSortedByTopologyHostAndWorkerPort() throws Exception {
        Target b1 = new Target("topo-b", "host-a", 6700, 9250, 4242L);
        Target a1 = new Target("topo-a", "host-b", 6700, 9250, 4242L);
        Target a2 = new Target("topo-a", "host-a", 6701, 9251, 4242L);
        Target a3 = new Target("topo-a", "host-a", 6700, 9250, 4242L);
        for (Target target : List.of(b1, a1, a2, a3)) {
            PrometheusTargets.publish(storage, null, target);
        }

        assertEquals(List.of(a3, a2, a1, b1), PrometheusTargets.read(session(DaemonType.UNKNOWN)));
    }

    @Test
    void theNodeHoldsTheEndpointAsJson() {
        PrometheusTargets.publish(storage, null, new Target("topo-1", "host-a", 6700, 9250, 4242L));

        byte[] data = storage.get_data(PrometheusTargets.path("topo-1", "host-a", 6700), false);

        assertEquals(Map.of("topologyId", "topo-1", "host", "host-a", "workerPort", 6700, "metricsPort", 9250, "pid", 4242),
            JSONValue.parse(new String(data, StandardCharsets.UTF_8)));
    }

    @Test
    void republishingReplacesTheEndpoint() {
        PrometheusTargets.publish(storage, null, new Target("topo-1", "host-a", 6700, 9250, 4242L));
        Target moved = new Target("topo-1", "host-a", 6700, 9251, 4242L);

        PrometheusTargets.publish(storage, null, moved);

        assertEquals(List.of(moved), PrometheusTargets.read(storage));
    }

    @Test
    void unpublishRemovesOnlyThatEndpoint() {
        Target gone = new Target("topo-1", "host-a", 6700, 9250, 4242L);
        Target staying = new Target("topo-1", "host-a", 6701, 9251, 4242L);
        PrometheusTargets.publish(storage, null, gone);
        PrometheusTargets.publish(storage, null, staying);

        PrometheusTargets.unpublish(storage, gone);

        assertEquals(List.of(staying), PrometheusTargets.read(storage));
    }

    @Test
    void anEndpointGoesWithTheSessionThatPublishedIt() throws Exception {
        IStateStorage worker = session(DaemonType.WORKER);
        PrometheusTargets.publish(worker, null, new Target("topo-1", "host-a", 6700, 9250, 4242L));
        assertEquals(1, PrometheusTargets.read(storage).size());

        worker.close();
        sessions.remove(worker);

        await().atMost(Duration.ofSeconds(30)).until(() -> PrometheusTargets.read(storage).isEmpty());
    }

    @Test
    void aNodeWithUnreadableDataIsSkipped() {
        Target valid = new Target("topo-1", "host-a", 6700, 9250, 4242L);
        PrometheusTargets.publish(storage, null, valid);
        storage.set_ephemeral_node(PrometheusTargets.path("topo-1", "host-a", 6701), bytes("not json"), null);
        storage.set_ephemeral_node(PrometheusTargets.path("topo-1", "host-a", 6702),
            bytes("{\"topologyId\":\"topo-1\",\"host\":\"host-a\",\"workerPort\":6702}"), null);
        storage.set_ephemeral_node(PrometheusTargets.path("topo-1", "host-a", 6703),
            bytes("{\"topologyId\":\"topo-1\",\"host\":\"host-a\",\"workerPort\":6703,\"metricsPort\":\"9250\"}"), null);
        storage.set_ephemeral_node(PrometheusTargets.path("topo-1", "host-a", 6704), new byte[0], null);

        assertEquals(List.of(valid), PrometheusTargets.read(storage));
    }

    @Test
    void aTopologyWithoutWorkersListsNothing() {
        storage.mkdirs(PrometheusTargets.ROOT + "/topo-1", null);

        assertTrue(PrometheusTargets.read(storage).isEmpty());
    }

    private IStateStorage session(DaemonType type) throws Exception {
        IStateStorage session = LoopbackZooKeeper.session(conf, type);
        sessions.add(session);
        return session;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
