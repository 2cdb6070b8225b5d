package io.whale.multicast.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.multicast.MulticastTree;
import io.whale.multicast.NonBlockingTreeBuilder;
import io.whale.multicast.monitor.NanoClock;
import io.whale.multicast.monitor.QueueMonitor;
import io.whale.multicast.monitor.StreamMonitor;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TreeExportTest {
    private final MulticastTree figure6 = new NonBlockingTreeBuilder(2).build(7);

    @Test
    void jsonCarriesEveryNodeWithItsParentLayerAndChildren() throws IOException {
        JsonNode json = new ObjectMapper().valueToTree(TreeExport.view(figure6, null));
        assertEquals(7, json.get("destinations").asInt());
        assertEquals(4, json.get("completionSteps").asInt());
        assertEquals(8, json.get("nodes").size());
        JsonNode t41 = json.get("nodes").get(7);
        assertEquals(2, t41.get("parent").asInt());
        assertEquals(4, t41.get("layer").asInt());
        assertEquals("[5,7]", json.get("nodes").get(2).get("children").toString());
        assertTrue(json.get("statistics").isNull());
    }

    @Test
    void jsonCarriesTheLiveStatisticsAndTheModelsView() throws IOException {
        long[] now = {0};
        NanoClock clock = () -> now[0];
        QueueMonitor queue = new QueueMonitor(() -> 17, clock, 0.5);
        StreamMonitor stream = new StreamMonitor(clock, 0.8, 4);
        queue.recordEmit(8_000, 2);
        stream.recordArrivals(600);
        now[0] = 10_000_000L;
        queue.sample();
        stream.tick();

        LiveStatistics stats = LiveStatistics.of(1234, 2, 7, 1024, queue, stream, 5);
        JsonNode json = new ObjectMapper().valueToTree(TreeExport.view(figure6, stats)).get("statistics");

        assertEquals(60_000, json.get("inputRate").asDouble(), 1e-6);
        assertEquals(4_000, json.get("emitNanosPerReplica").asDouble(), 1e-6);
        assertEquals(17, json.get("queueLength").asInt());
        assertEquals(4, json.get("modelMaxOutDegree").asInt());
        assertEquals(0.48 * 0.48 / (2 * 0.52) + 0.48, json.get("modelMeanQueueLength").asDouble(), 1e-9);
        assertEquals(5, json.get("droppedTuples").asLong());
    }

    @Test
    void dotCarriesTheLiveStatisticsInItsLabel() {
        long[] now = {0};
        QueueMonitor queue = new QueueMonitor(() -> 3, () -> now[0], 0.5);
        StreamMonitor stream = new StreamMonitor(() -> now[0], 0.8, 4);
        LiveStatistics stats = LiveStatistics.of(0, 2, 7, 1024, queue, stream, 9);
        String dot = TreeExport.toDot(figure6, stats);
        assertTrue(dot.contains("queue 0/1024, dropped 9"), dot);
        assertEquals(0, stats.modelMaxOutDegree(), "unknown while nothing was measured");
    }

    @Test
    void dotHasOneEdgePerDestinationInSendOrder() {
        String dot = TreeExport.toDot(figure6, null);
        assertTrue(dot.startsWith("digraph multicast {"));
        assertEquals(7, dot.split("->", -1).length - 1);
        assertTrue(dot.contains("n2 -> n7 [label=\"2\"]"), dot);
        assertTrue(dot.contains("n7 [label=\"7\\nL4\"]"), dot);
        assertTrue(dot.trim().endsWith("}"));
    }
}
