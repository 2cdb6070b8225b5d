package io.whale.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.multicast.MulticastTree;
import io.whale.multicast.export.LiveStatistics;
import io.whale.relay.TreeBoard;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.storm.cluster.IStateStorage;

/**
 * What one source worker published about its relay trees (io.whale.relay.TreeBoard in the worker): the worker as
 * host:port, its shape, when it wrote, and per (source task, tree) the tree's members and layout.
 */
public record MulticastBoard(String worker, String shape, long updatedMillis, List<Source> trees) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One source task's tree: {@code members.get(v - 1)} is node v (host:port), {@code tree} the layout the source
     * sends along; {@code statistics} null for a fixed shape.
     */
    public record Source(int sourceTask, int treeId, int epoch, List<String> members, MulticastTree tree, LiveStatistics statistics) {
    }

    /** Reads a board as the worker wrote it; names the worker's node in the error when it does not read. */
    public static MulticastBoard parse(String node, byte[] json) {
        try {
            JsonNode board = JSON.readTree(json);
            List<Source> trees = new ArrayList<>();
            for (JsonNode t : board.path("trees")) {
                List<String> members = new ArrayList<>();
                t.path("members").forEach(m -> members.add(m.asText()));
                int[][] children = new int[t.path("children").size()][];
                for (int v = 0; v < children.length; v++) {
                    JsonNode of = t.path("children").get(v);
                    children[v] = new int[of.size()];
                    for (int k = 0; k < of.size(); k++) {
                        children[v][k] = of.get(k).asInt();
                    }
                }
                trees.add(new Source(t.path("sourceTask").asInt(), t.path("treeId").asInt(), t.path("epoch").asInt(), members,
                    MulticastTree.fromChildren(children), statistics(t.get("statistics"))));
            }
            return new MulticastBoard(board.path("worker").asText(), board.path("shape").asText(),
                board.path("updated").asLong(), trees);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("the relay trees published at " + node + " do not read: " + e.getMessage(), e);
        }
    }

    /** The boards under the topology's node, in worker order; a worker that stopped meanwhile is skipped. */
    public static List<MulticastBoard> read(IStateStorage zk, String topologyId) {
        String dir = TreeBoard.ROOT + "/" + topologyId;
        List<MulticastBoard> boards = new ArrayList<>();
        if (zk.node_exists(dir, false)) {
            for (String worker : zk.get_children(dir, false).stream().sorted().toList()) {
                byte[] data = zk.get_data(dir + "/" + worker, false);
                if (data != null) {
                    boards.add(parse(worker, data));
                }
            }
        }
        return boards;
    }

    private static LiveStatistics statistics(JsonNode s) {
        if (s == null || s.isNull()) {
            return null;
        }
        return new LiveStatistics(s.path("timestampMillis").asLong(), s.path("sourceOutDegree").asInt(),
            number(s, "inputRate"), number(s, "emitNanosPerReplica"), s.path("queueLength").asInt(),
            s.path("queueCapacity").asInt(), number(s, "modelMeanQueueLength"), s.path("modelMaxOutDegree").asInt(),
            number(s, "maxAffordableRate"), s.path("droppedTuples").asLong());
    }

    /** The worker writes a figure not measured yet as null. */
    private static double number(JsonNode s, String field) {
        JsonNode value = s.get(field);
        return value == null || value.isNull() ? Double.NaN : value.asDouble();
    }
}
