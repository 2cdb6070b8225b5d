package io.whale.multicast.export;

import io.whale.multicast.MulticastTree;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders a tree, optionally with its live statistics: as a view of plain records (what the UI and
 * {@code whale multicast --json} write as JSON) or as Graphviz DOT (for the docs).
 */
public final class TreeExport {
    private TreeExport() {
    }

    /** One node: {@code children} in send order; {@code layer} is the time unit in which it receives. */
    public record NodeView(int id, int parent, int layer, int hops, int outDegree, int[] children) {
    }

    public record TreeView(int destinations, int maxOutDegree, int sourceOutDegree, int completionSteps, int depth,
                           List<NodeView> nodes, LiveStatistics statistics) {
    }

    /** @param statistics may be null */
    public static TreeView view(MulticastTree tree, LiveStatistics statistics) {
        List<NodeView> nodes = new ArrayList<>(tree.nodeCount());
        for (int v = 0; v < tree.nodeCount(); v++) {
            nodes.add(new NodeView(v, tree.parent(v), tree.layer(v), tree.hops(v), tree.outDegree(v),
                    tree.children(v)));
        }
        return new TreeView(tree.destinations(), tree.maxOutDegree(), tree.sourceOutDegree(),
                tree.completionSteps(), tree.depth(), nodes, statistics);
    }

    /**
     * A DOT digraph: the source is {@code S}, a destination is labelled with its id and layer, an edge with the
     * child's position in its parent's send order. @param statistics may be null
     */
    public static String toDot(MulticastTree tree, LiveStatistics statistics) {
        return toDot(tree, statistics, "S", null);
    }

    /**
     * As {@link #toDot(MulticastTree, LiveStatistics)}, with the nodes named: {@code source} for the source and
     * {@code names.get(v - 1)} for destination {@code v} (e.g. workers as host:port); null names number them.
     */
    public static String toDot(MulticastTree tree, LiveStatistics statistics, String source, List<String> names) {
        StringBuilder dot = new StringBuilder("digraph multicast {\n  rankdir=TB;\n  node [shape=circle];\n");
        dot.append("  label=\"n=").append(tree.destinations()).append(", max out-degree ")
                .append(tree.maxOutDegree()).append(", ").append(tree.completionSteps()).append(" steps");
        if (statistics != null) {
            dot.append(String.format(Locale.ROOT, "\\nλ=%.0f/s, t_e=%.0f ns, queue %d/%d, dropped %d",
                    statistics.inputRate(), statistics.emitNanosPerReplica(), statistics.queueLength(),
                    statistics.queueCapacity(), statistics.droppedTuples()));
        }
        dot.append("\";\n  labelloc=t;\n");
        dot.append("  n0 [label=\"").append(source).append("\", shape=doublecircle];\n");
        for (int v = 1; v < tree.nodeCount(); v++) {
            dot.append("  n").append(v).append(" [label=\"").append(names == null ? String.valueOf(v) : names.get(v - 1))
                    .append("\\nL").append(tree.layer(v)).append("\"];\n");
        }
        for (int p = 0; p < tree.nodeCount(); p++) {
            for (int k = 0; k < tree.outDegree(p); k++) {
                dot.append("  n").append(p).append(" -> n").append(tree.child(p, k)).append(" [label=\"")
                        .append(k + 1).append("\"];\n");
            }
        }
        return dot.append("}\n").toString();
    }
}
