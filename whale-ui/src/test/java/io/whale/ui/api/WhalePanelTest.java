package io.whale.ui.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.relay.MulticastBoard;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.ExecutorInfo;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.testing.TestWordCounter;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;

class WhalePanelTest {

    @Test
    void shouldFindTheAllGroupedStreamsOnly() {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("orders", new TestWordSpout());
        builder.setBolt("matcher", new TestWordCounter(), 4).allGrouping("orders");
        builder.setBolt("counter", new TestWordCounter(), 2).fieldsGrouping("matcher", new Fields("word"));

        List<WhalePanel.Broadcast> broadcasts = WhalePanel.broadcasts(builder.createTopology());

        assertEquals(List.of(new WhalePanel.Broadcast("orders", "default", "matcher")), broadcasts);
    }

    @Test
    void shouldDrawTheSequentialFanOutFromEachSourceWorkerToEveryOtherDestinationWorker() {
        TopologyInfo info = new TopologyInfo();
        info.set_executors(List.of(executor("orders", 1, "h1", 6700), executor("matcher", 2, "h1", 6700),
            executor("matcher", 3, "h2", 6700), executor("matcher", 4, "h3", 6701), executor("matcher", 5, "h3", 6701)));

        List<DrawnTree> trees = WhalePanel.fanOuts(List.of(new WhalePanel.Broadcast("orders", "default", "matcher")), info);

        assertEquals(1, trees.size());
        DrawnTree star = trees.get(0);
        assertEquals(List.of("h1:6700", "h2:6700", "h3:6701"), star.workers(),
            "the source worker, then each other worker holding matcher tasks once (its own tasks get the tuple locally)");
        assertEquals(2, star.tree().sourceOutDegree());
        assertEquals(1, star.tree().depth());
    }

    @Test
    void shouldDrawEachPublishedRelayTreeWithItsLiveFigures() {
        // what a source worker's TreeBoard writes: source -> 1, 1 -> 2 (a chain), with a live shape
        MulticastBoard board = MulticastBoard.parse("h1:6700", ("{\"worker\":\"h1:6700\",\"shape\":\"nonblocking/auto\",\"updated\":1,"
            + "\"trees\":[{\"sourceTask\":3,\"treeId\":0,\"epoch\":2,\"members\":[\"h2:6700\",\"h3:6700\"],"
            + "\"children\":[[1],[2],[]],\"statistics\":{\"timestampMillis\":1,\"sourceOutDegree\":1,\"inputRate\":1500,"
            + "\"emitNanosPerReplica\":2500,\"queueLength\":7,\"queueCapacity\":1000,\"modelMeanQueueLength\":0.25,"
            + "\"modelMaxOutDegree\":4,\"maxAffordableRate\":9000,\"droppedTuples\":0}}]}").getBytes(StandardCharsets.UTF_8));

        List<DrawnTree> trees = WhalePanel.relayTrees(List.of(board), Map.of(3, "split"));

        assertEquals(1, trees.size());
        DrawnTree tree = trees.get(0);
        assertEquals(List.of("h1:6700", "h2:6700", "h3:6700"), tree.workers(), "the source worker first, then the members");
        assertEquals(2, tree.tree().depth());
        assertTrue(tree.title().startsWith("split (task 3) from h1:6700, nonblocking/auto tree 0 epoch 2"), tree.title());
        assertEquals("source out-degree 1, depth 2, d* 4, λ 1500 tuples/s, t_e 2.5 µs, queue 7/1000, E(L) 0.25", tree.caption());
    }

    @Test
    void shouldReadTheSwitchesFromTheTopologysConf() {
        Map<String, Object> conf = Map.of("whale.woc.enabled", true, "whale.transport", "rdma",
            "whale.multicast.structure", "nonblocking", "topology.metrics.reporters",
            List.of(Map.of("class", WhalePanel.PROMETHEUS_REPORTER, "port", "9250-9260")));

        Map<String, Object> switches = WhalePanel.switches(conf);

        assertEquals(true, switches.get("woc"));
        assertEquals("rdma", switches.get("transport"));
        assertEquals("nonblocking", switches.get("multicastStructure"));
        assertEquals("auto", switches.get("maxOutDegree"));
        assertEquals(true, switches.get("prometheus"));
        assertEquals(false, WhalePanel.switches(Map.of()).get("woc"), "unset: Storm's behaviour");
        assertEquals("sequential", WhalePanel.switches(Map.of()).get("multicastStructure"));
        assertEquals(false, WhalePanel.switches(Map.of()).get("prometheus"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldSumTheCountersOverTheWorkersAndDeriveWocsRatios() {
        String toSecond = WhalePanel.bytesSentToMetric("sup-2-10.0.0.3", 6701);
        Map<String, Double> one = Map.of("storm_woc_frames_sent", 10.0, "storm_woc_frame_destinations", 30.0,
            "storm_woc_emits", 10.0, "storm_woc_serializations", 10.0, toSecond, 4_000.0,
            "storm_rdma_messages_sent", 7.0, "storm_woc_acks_offered", 60.0, "storm_woc_acks_sent", 8.0,
            "storm_woc_ack_delay_us", 24_000.0, "storm_woc_acks_completed", 6.0);
        Map<String, Double> two = Map.of("storm_woc_acks_offered", 20.0, "storm_woc_acks_sent", 2.0, "storm_woc_ack_delay_us", 6_000.0,
            "storm_woc_frames_sent", 10.0, "storm_woc_frame_destinations", 30.0,
            "storm_woc_frames_received", 20.0, "storm_woc_bytes_sent_to_sup_1_6700", 1_000.0, "storm_relay_frames_forwarded", 5.0);

        Map<String, Object> counters = WhalePanel.counters(List.of(one, two), Map.of(toSecond, "10.0.0.3:6701"));

        Map<String, Object> woc = (Map<String, Object>) counters.get("woc");
        assertEquals(20L, woc.get("frames_sent"));
        assertEquals(3.0, woc.get("destinations_per_frame"));
        assertEquals(1.0, woc.get("serializations_per_emit"));
        assertEquals(20L, woc.get("frames_received"));
        assertEquals(0L, woc.get("frames_malformed"));
        assertEquals("storm_woc_bytes_sent_to_sup_2_10_0_0_3_6701", toSecond, "the name WocMetrics' counter has on the endpoint");
        assertEquals(Map.of("sup_1_6700", 1_000L, "10.0.0.3:6701", 4_000L), woc.get("bytes_sent_to"),
            "a known worker by host:port, an unknown one by what its metric's name says");
        assertEquals(Map.of("messages_sent", 7L), counters.get("rdma"));
        assertEquals(Map.of("frames_forwarded", 5L), counters.get("relay"));
        Map<String, Object> acks = (Map<String, Object>) counters.get("acks");
        assertEquals(80L, acks.get("acks_offered"));
        assertEquals(10L, acks.get("acks_sent"));
        assertEquals(8.0, acks.get("acks_per_ack_sent"));
        assertEquals(3.0, acks.get("mean_wait_ms"));
        assertEquals(6L, acks.get("acks_completed"));
        assertEquals(0L, acks.get("acks_dropped"));
        assertNull(((Map<String, Object>) WhalePanel.counters(List.of(), Map.of()).get("acks")).get("mean_wait_ms"));
        Map<String, Object> none = (Map<String, Object>) WhalePanel.counters(List.of(), Map.of()).get("woc");
        assertNull(none.get("destinations_per_frame"), "no frame yet: no ratio, rather than 0 or NaN");
        assertFalse(none.isEmpty());
        assertTrue(((Map<?, ?>) none.get("bytes_sent_to")).isEmpty());
    }

    private static ExecutorSummary executor(String component, int task, String host, int port) {
        ExecutorSummary e = new ExecutorSummary();
        e.set_component_id(component);
        e.set_executor_info(new ExecutorInfo(task, task));
        e.set_host(host);
        e.set_port(port);
        return e;
    }
}
