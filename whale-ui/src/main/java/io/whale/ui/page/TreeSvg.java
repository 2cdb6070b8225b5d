package io.whale.ui.page;

import io.whale.multicast.MulticastTree;
import io.whale.ui.api.DrawnTree;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * Draws broadcast paths as one SVG: per tree its title and caption, then the workers layer by layer (the source
 * worker on top, each hop one layer down, a layer wider than {@value #PER_ROW} workers wrapped over several rows),
 * an edge from each worker to the workers it sends to. Every worker is a {@code <g class="worker">} with its
 * host:port in {@code data-worker} (the source's also of class {@code source}), so a test can count them.
 */
public final class TreeSvg {
    static final int PER_ROW = 8;
    private static final int NODE_W = 150;
    private static final int NODE_H = 34;
    private static final int GAP_X = 14;
    private static final int GAP_Y = 46;
    private static final int MARGIN = 10;
    private static final int HEADER = 40;

    private TreeSvg() {
    }

    public static String render(List<DrawnTree> trees) {
        int width = MARGIN * 2 + PER_ROW * (NODE_W + GAP_X);
        StringBuilder body = new StringBuilder();
        int y = MARGIN;
        for (DrawnTree tree : trees) {
            y = draw(body, tree, y, width) + GAP_Y;
        }
        int height = Math.max(y, 2 * MARGIN + 20);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"trees\" width=\"%d\" height=\"%d\" "
            + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">", width, height, width, height));
        if (trees.isEmpty()) {
            svg.append("<text x=\"").append(MARGIN).append("\" y=\"").append(MARGIN + 12)
                .append("\">No broadcast (all grouping) in this topology, or no worker has sent one yet.</text>");
        }
        return svg.append(body).append("</svg>").toString();
    }

    /** Draws one tree from {@code top}; returns the y below it. */
    private static int draw(StringBuilder out, DrawnTree tree, int top, int width) {
        out.append("<g class=\"tree\">");
        text(out, MARGIN, top + 12, "bold", tree.title());
        text(out, MARGIN, top + 28, "normal", tree.caption());
        int[][] position = new int[tree.tree().nodeCount()][];
        int y = top + HEADER;
        for (List<Integer> layer : hopLayers(tree.tree())) {
            for (int start = 0; start < layer.size(); start += PER_ROW) {
                int count = Math.min(PER_ROW, layer.size() - start);
                int rowWidth = count * (NODE_W + GAP_X) - GAP_X;
                int x = (width - rowWidth) / 2;
                for (int k = 0; k < count; k++) {
                    position[layer.get(start + k)] = new int[] {x + k * (NODE_W + GAP_X), y};
                }
                y += NODE_H + GAP_Y;
            }
        }
        List<String> nodes = new ArrayList<>();
        for (int v = 0; v < position.length; v++) {
            for (int child : tree.tree().children(v)) {
                out.append(String.format(Locale.ROOT, "<line class=\"edge\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#7a8899\"/>",
                    position[v][0] + NODE_W / 2, position[v][1] + NODE_H, position[child][0] + NODE_W / 2, position[child][1]));
            }
            nodes.add(node(v, tree, position[v]));
        }
        nodes.forEach(out::append);
        out.append("</g>");
        return y - GAP_Y;
    }

    /**
     * The nodes by hops from the source, each layer in breadth-first order so that siblings stand together (the tree's
     * own {@code layers()} are time steps of the send schedule, not hops).
     */
    private static List<List<Integer>> hopLayers(MulticastTree tree) {
        List<List<Integer>> layers = new ArrayList<>();
        Deque<Integer> queue = new ArrayDeque<>(List.of(MulticastTree.SOURCE));
        while (!queue.isEmpty()) {
            int v = queue.poll();
            while (layers.size() <= tree.hops(v)) {
                layers.add(new ArrayList<>());
            }
            layers.get(tree.hops(v)).add(v);
            for (int child : tree.children(v)) {
                queue.add(child);
            }
        }
        return layers;
    }

    private static String node(int v, DrawnTree tree, int[] at) {
        boolean source = v == 0;
        int outDegree = tree.tree().outDegree(v);
        StringBuilder g = new StringBuilder();
        g.append("<g class=\"worker").append(source ? " source" : "").append("\" data-worker=\"").append(Html.escape(tree.workers().get(v)))
            .append("\" data-node=\"").append(v).append("\">");
        g.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"5\" fill=\"%s\" stroke=\"#34495e\"/>",
            at[0], at[1], NODE_W, NODE_H, source ? "#f6c36b" : "#d6e9f8"));
        g.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>", at[0] + NODE_W / 2, at[1] + 14,
            Html.escape(tree.workers().get(v))));
        g.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%s</text>", at[0] + NODE_W / 2,
            at[1] + 28, source ? "source, sends to " + outDegree : outDegree > 0 ? "relays to " + outDegree : "hop " + tree.tree().hops(v)));
        return g.append("</g>").toString();
    }

    private static void text(StringBuilder out, int x, int y, String weight, String content) {
        out.append("<text x=\"").append(x).append("\" y=\"").append(y).append("\" font-weight=\"").append(weight).append("\">")
            .append(Html.escape(content)).append("</text>");
    }
}
