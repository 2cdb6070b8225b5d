package io.whale.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.whale.multicast.MulticastTree;
import io.whale.multicast.export.LiveStatistics;
import io.whale.multicast.export.TreeExport;
import io.whale.relay.MulticastBoard;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders the boards of a topology's source workers: an indented tree per source for people, JSON and DOT for tools. */
public final class MulticastReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private MulticastReport() {
    }

    /**
     * Per source worker, each source task's tree: the source, then each member (host:port) indented under its parent
     * with its out-degree, in send order; with a live shape the controller's figures.
     *
     * @param components the component of each task
     */
    static String text(List<MulticastBoard> boards, Map<Integer, String> components, long nowMillis) {
        StringBuilder out = new StringBuilder();
        for (MulticastBoard board : boards) {
            out.append(String.format(Locale.ROOT, "%s  %s  (published %.1f s ago)%n", board.worker(), board.shape(),
                (nowMillis - board.updatedMillis()) / 1000.0));
            for (MulticastBoard.Source source : board.trees()) {
                MulticastTree tree = source.tree();
                out.append(String.format(Locale.ROOT, "  source task %d (%s), tree %d, epoch %d: %d members, max out-degree %d,"
                        + " depth %d, %d steps%n", source.sourceTask(), components.getOrDefault(source.sourceTask(), "?"),
                    source.treeId(), source.epoch(), tree.destinations(), tree.maxOutDegree(), tree.depth(), tree.completionSteps()));
                out.append("    ").append(board.worker()).append("  (source, out-degree ").append(tree.outDegree(0)).append(")\n");
                appendChildren(out, source, 0, 3);
                LiveStatistics s = source.statistics();
                if (s != null) {
                    out.append(String.format(Locale.ROOT, "    d* %d (model: %d), λ %s tuples/s, t_e %s µs, queue %d of %d,"
                            + " E(L) %s%n", s.sourceOutDegree(), s.modelMaxOutDegree(), figure("%.0f", s.inputRate()),
                        figure("%.1f", s.emitNanosPerReplica() / 1000.0), s.queueLength(), s.queueCapacity(),
                        figure("%.1f", s.modelMeanQueueLength())));
                }
            }
        }
        return out.toString();
    }

    /** A figure, or "?" while it is not measured (or the model has no finite value). */
    private static String figure(String format, double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, format, value) : "?";
    }

    private static void appendChildren(StringBuilder out, MulticastBoard.Source source, int node, int depth) {
        MulticastTree tree = source.tree();
        for (int child : tree.children(node)) {
            out.append("  ".repeat(depth)).append(source.members().get(child - 1));
            if (tree.outDegree(child) > 0) {
                out.append("  (out-degree ").append(tree.outDegree(child)).append(')');
            }
            out.append('\n');
            appendChildren(out, source, child, depth + 1);
        }
    }

    /** Every source's tree as TreeExport's view, with the source worker, the members and the source task's component. */
    public static String json(String topologyId, List<MulticastBoard> boards, Map<Integer, String> components) {
        List<Map<String, Object>> trees = new ArrayList<>();
        for (MulticastBoard board : boards) {
            for (MulticastBoard.Source source : board.trees()) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("sourceWorker", board.worker());
                entry.put("shape", board.shape());
                entry.put("sourceTask", source.sourceTask());
                entry.put("component", components.get(source.sourceTask()));
                entry.put("treeId", source.treeId());
                entry.put("epoch", source.epoch());
                entry.put("members", source.members());
                entry.put("tree", TreeExport.view(source.tree(), source.statistics()));
                trees.add(entry);
            }
        }
        try {
            return JSON.writeValueAsString(Map.of("topology", topologyId, "trees", trees));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One Graphviz digraph per source's tree, its nodes named by worker. */
    static String dot(List<MulticastBoard> boards) {
        StringBuilder dot = new StringBuilder();
        for (MulticastBoard board : boards) {
            for (MulticastBoard.Source source : board.trees()) {
                dot.append("// source task ").append(source.sourceTask()).append(", tree ").append(source.treeId())
                    .append(", epoch ").append(source.epoch()).append('\n');
                dot.append(TreeExport.toDot(source.tree(), source.statistics(), board.worker(), source.members()));
            }
        }
        return dot.toString();
    }
}
