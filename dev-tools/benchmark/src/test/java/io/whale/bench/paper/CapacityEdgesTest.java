package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CapacityEdgesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldCloseTheCapacityWindowAtTheDrainAfterItAndNotAtTheDrainsAfterTheProbes() throws Exception {
        // the events of a run with one probe, as its feed wrote them ("*": measuring)
        List<CapacityEdges.Edge> seen = edgesOf("starting", "capacity", "capacity*", "drain", "search", "search*", "drain",
            "common", "common*", "done");
        CapacityEdges.Edge none = CapacityEdges.Edge.NONE;
        assertEquals(List.of(none, none, CapacityEdges.Edge.OPENS, CapacityEdges.Edge.CLOSES, none, none, none,
            none, none, none), seen);
    }

    @Test
    void shouldOpenAgainAtEveryCapacityWindowSoThatTheLastOneIsMeasured() throws Exception {
        List<CapacityEdges.Edge> seen = edgesOf("capacity", "capacity*", "capacity*", "capacity*", "drain", "search*", "drain");
        CapacityEdges.Edge none = CapacityEdges.Edge.NONE;
        CapacityEdges.Edge opens = CapacityEdges.Edge.OPENS;
        assertEquals(List.of(none, opens, opens, opens, CapacityEdges.Edge.CLOSES, none, none), seen);
    }

    @Test
    void shouldFindNoCapacityWindowInARateStepRun() throws Exception {
        CapacityEdges edges = new CapacityEdges();
        for (String e : List.of("{\"phase\":\"starting\",\"measuring\":false}", "{\"phase\":\"drain\",\"measuring\":false}",
            "{\"phase\":\"steps\",\"measuring\":true,\"step\":0}", "{\"phase\":\"steps\",\"measuring\":true,\"step\":1}")) {
            assertEquals(CapacityEdges.Edge.NONE, edges.of(JSON.readTree(e)));
        }
    }

    /**
     * What one {@link CapacityEdges} makes of feed events given as their phase, a "*" after it when measuring (as
     * {@code feed-events.jsonl} has them), in order.
     */
    private static List<CapacityEdges.Edge> edgesOf(String... events) throws Exception {
        CapacityEdges edges = new CapacityEdges();
        List<CapacityEdges.Edge> seen = new ArrayList<>();
        for (String e : events) {
            boolean measuring = e.endsWith("*");
            String line = "{\"phase\":\"" + e.replace("*", "") + "\",\"measuring\":" + measuring + "}";
            seen.add(edges.of(JSON.readTree(line)));
        }
        return seen;
    }
}
