package io.whale.relay;

import io.whale.multicast.MulticastTree;
import io.whale.multicast.export.LiveStatistics;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.cluster.IStateStorage;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.shade.net.minidev.json.parser.ParseException;

/**
 * What one source worker publishes about its relay trees ({@link TreeBoard}) and {@code whale multicast} and whale ui
 * read: the worker as host:port, a description of its shape for people, when it wrote, and per (source task, tree)
 * the tree's members and layout, with the controller's figures for a live shape. Written and read here only, so that
 * the two sides cannot disagree on a field.
 */
public record MulticastBoard(String worker, String shape, long updatedMillis, List<Source> trees) {
    /**
     * One source task's tree: {@code members.get(v - 1)} is node v (host:port), {@code tree} the layout the source
     * sends along; {@code statistics} null for a fixed shape.
     */
    public record Source(int sourceTask, int treeId, int epoch, List<String> members, MulticastTree tree, LiveStatistics statistics) {
    }

    /** The board as the worker writes it to ZooKeeper. */
    public String toJson() {
        List<Map<String, Object>> sources = new ArrayList<>();
        for (Source s : trees) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("sourceTask", s.sourceTask());
            entry.put("treeId", s.treeId());
            entry.put("epoch", s.epoch());
            entry.put("members", s.members());
            List<List<Integer>> children = new ArrayList<>();
            for (int v = 0; v < s.tree().nodeCount(); v++) {
                children.add(Arrays.stream(s.tree().children(v)).boxed().toList());
            }
            entry.put("children", children);
            if (s.statistics() != null) {
                entry.put("statistics", statisticsJson(s.statistics()));
            }
            sources.add(entry);
        }
        Map<String, Object> board = new LinkedHashMap<>();
        board.put("worker", worker);
        board.put("shape", shape);
        board.put("updated", updatedMillis);
        board.put("trees", sources);
        return JSONValue.toJSONString(board);
    }

    /** Reads a board as the worker wrote it; names the worker's node in the error when it does not read. */
    public static MulticastBoard parse(String node, byte[] json) {
        try {
            Map<?, ?> board = (Map<?, ?>) JSONValue.parseWithException(new String(json, StandardCharsets.UTF_8));
            List<Source> trees = new ArrayList<>();
            for (Object o : (List<?>) board.get("trees")) {
                Map<?, ?> t = (Map<?, ?>) o;
                List<String> members = ((List<?>) t.get("members")).stream().map(String::valueOf).toList();
                List<?> of = (List<?>) t.get("children");
                int[][] children = new int[of.size()][];
                for (int v = 0; v < children.length; v++) {
                    children[v] = ((List<?>) of.get(v)).stream().mapToInt(c -> ((Number) c).intValue()).toArray();
                }
                trees.add(new Source(integer(t, "sourceTask"), integer(t, "treeId"), integer(t, "epoch"), members,
                    MulticastTree.fromChildren(children), statistics((Map<?, ?>) t.get("statistics"))));
            }
            return new MulticastBoard((String) board.get("worker"), (String) board.get("shape"),
                ((Number) board.get("updated")).longValue(), trees);
        } catch (ParseException | RuntimeException e) {
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

    private static Map<String, Object> statisticsJson(LiveStatistics s) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("timestampMillis", s.timestampMillis());
        json.put("sourceOutDegree", s.sourceOutDegree());
        json.put("inputRate", finite(s.inputRate()));
        json.put("emitNanosPerReplica", finite(s.emitNanosPerReplica()));
        json.put("queueLength", s.queueLength());
        json.put("queueCapacity", s.queueCapacity());
        json.put("modelMeanQueueLength", finite(s.modelMeanQueueLength()));
        json.put("modelMaxOutDegree", s.modelMaxOutDegree());
        json.put("maxAffordableRate", finite(s.maxAffordableRate()));
        json.put("droppedTuples", s.droppedTuples());
        return json;
    }

    private static LiveStatistics statistics(Map<?, ?> s) {
        if (s == null) {
            return null;
        }
        return new LiveStatistics(((Number) s.get("timestampMillis")).longValue(), integer(s, "sourceOutDegree"),
            number(s, "inputRate"), number(s, "emitNanosPerReplica"), integer(s, "queueLength"), integer(s, "queueCapacity"),
            number(s, "modelMeanQueueLength"), integer(s, "modelMaxOutDegree"), number(s, "maxAffordableRate"),
            ((Number) s.get("droppedTuples")).longValue());
    }

    private static int integer(Map<?, ?> json, String field) {
        Object value = json.get(field);
        if (!(value instanceof Number n)) {
            throw new IllegalArgumentException("'" + field + "' is not a number: " + value);
        }
        return n.intValue();
    }

    /** JSON has no NaN or infinity: such a figure (not measured yet, or an overloaded model) is written as null. */
    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }

    private static double number(Map<?, ?> json, String field) {
        return json.get(field) instanceof Number n ? n.doubleValue() : Double.NaN;
    }
}
