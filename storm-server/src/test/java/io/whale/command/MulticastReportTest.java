package io.whale.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.multicast.BinomialTreeBuilder;
import io.whale.multicast.monitor.NanoClock;
import io.whale.relay.ControllerSettings;
import io.whale.relay.MulticastBoard;
import io.whale.relay.RelayTrees;
import io.whale.relay.TreeBoard;
import io.whale.relay.TreeShaper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.junit.jupiter.api.Test;

/** What a source worker's TreeBoard writes, read and shown as whale multicast shows it. */
class MulticastReportTest {
    private static final List<NodeInfo> MEMBERS = List.of(new NodeInfo("sup-1", Set.of(6701L)),
        new NodeInfo("sup-2", Set.of(6702L)), new NodeInfo("sup-3", Set.of(6703L)));
    private static final Map<String, String> HOSTS = Map.of("sup-1", "10.0.0.11", "sup-2", "10.0.0.12", "sup-3", "10.0.0.13");
    private static final long NOW = 1_000_000L;

    @Test
    void shouldShowEachSourcesTreeIndentedWithItsWorkersAndOutDegrees() {
        MulticastBoard board = published(TreeShaper.fixed(new BinomialTreeBuilder()));

        assertEquals(String.join("\n",
            "10.0.0.10:6700  binomial  (published 1.5 s ago)",
            "  source task 5 (spout), tree 42, epoch 0: 3 members, max out-degree 2, depth 2, 2 steps",
            "    10.0.0.10:6700  (source, out-degree 2)",
            "      10.0.0.11:6701  (out-degree 1)",
            "        10.0.0.13:6703",
            "      10.0.0.12:6702",
            ""), MulticastReport.text(List.of(board), Map.of(5, "spout"), NOW + 1500));
        assertNull(board.trees().get(0).statistics());
    }

    @Test
    void shouldCarryALiveShapesFiguresWithUnmeasuredOnesAsNaN() {
        TreeShaper live = TreeShaper.live(new ControllerSettings(1000, 500, 0.5, 0.5, 10, 0.8, 0), () -> 3, NanoClock.system(),
            new StormMetricRegistry());

        MulticastBoard board = published(live);

        assertEquals(1000, board.trees().get(0).statistics().queueCapacity());
        assertTrue(Double.isNaN(board.trees().get(0).statistics().emitNanosPerReplica()));
        String text = MulticastReport.text(List.of(board), Map.of(), NOW);
        assertTrue(text.contains("t_e ? µs, queue 0 of 1000"), text);
    }

    @Test
    void shouldExportTheTreesAsJsonAndDotWithTheWorkersNamed() throws Exception {
        MulticastBoard board = published(TreeShaper.fixed(new BinomialTreeBuilder()));

        JsonNode json = new ObjectMapper().readTree(MulticastReport.json("topo-1-2", List.of(board), Map.of(5, "spout")));
        JsonNode tree = json.path("trees").get(0);
        assertEquals("topo-1-2", json.path("topology").asText());
        assertEquals("spout", tree.path("component").asText());
        assertEquals("10.0.0.13:6703", tree.path("members").get(2).asText());
        assertEquals(2, tree.path("tree").path("maxOutDegree").asInt());
        assertEquals(3, tree.path("tree").path("nodes").get(1).path("children").get(0).asInt());
        String dot = MulticastReport.dot(List.of(board));
        assertTrue(dot.contains("n0 [label=\"10.0.0.10:6700\", shape=doublecircle]"), dot);
        assertTrue(dot.contains("n3 [label=\"10.0.0.13:6703\\nL2\"]"), dot);
        assertTrue(dot.contains("n1 -> n3"), dot);
    }

    private static MulticastBoard published(TreeShaper shaper) {
        TreeBoard board = new TreeBoard(shaper);
        board.laidOut(5, new RelayTrees.Tree(42, 0, MEMBERS, new int[][] {{1, 2}, {3}, {}, {}}));
        return MulticastBoard.parse("sup-0:6700", board.snapshot("10.0.0.10:6700", NOW, HOSTS::get).toJson().getBytes(StandardCharsets.UTF_8));
    }
}
