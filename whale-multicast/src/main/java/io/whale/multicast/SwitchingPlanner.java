package io.whale.multicast;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Plans the moves that re-shape a tree for a new d* (paper §3.4), without rebuilding it:
 * <ol>
 *   <li><b>Negative scale-down.</b> While some node has more than d* children (the source first, then by layer),
 *       its last child — the one it serves latest — is reattached, with its subtree, as the last child of the
 *       node outside that subtree whose new slot receives earliest (the shallowest node with spare degree).</li>
 *   <li><b>Active scale-up</b> (also run after a scale-down, where it only tidies). The node received last
 *       (always a leaf) moves to the earliest free slot of a node with spare degree, as long as that slot
 *       receives strictly earlier; it stops when the best new position is on the same layer or later.</li>
 * </ol>
 * Every move makes a node with fewer than d* children gain one, and only ever reattaches a node outside the
 * new parent's ancestry, so each intermediate tree spans all destinations once, is acyclic, and no out-degree
 * exceeds max(d* before, d* after). The final tree respects d*.
 */
public final class SwitchingPlanner {

    public SwitchPlan plan(MulticastTree tree, int maxOutDegree) {
        if (maxOutDegree < 1) {
            throw new IllegalArgumentException("d* must be >= 1, got " + maxOutDegree);
        }
        Working w = new Working(tree);
        List<Move> moves = new ArrayList<>();
        scaleDown(w, maxOutDegree, moves);
        scaleUp(w, maxOutDegree, moves);
        MulticastTree result = tree;
        for (Move m : moves) {
            result = result.apply(m);
        }
        return new SwitchPlan(tree, result, maxOutDegree, moves);
    }

    private static void scaleDown(Working w, int bound, List<Move> moves) {
        while (true) {
            int overloaded = -1;
            for (int v = 0; v < w.nodes; v++) {
                if (w.degree[v] > bound && (overloaded == -1 || w.layer[v] < w.layer[overloaded])) {
                    overloaded = v;
                }
            }
            if (overloaded == -1) {
                return;
            }
            int moved = w.children[overloaded][w.degree[overloaded] - 1];
            boolean[] inSubtree = w.subtreeOf(moved);
            int target = w.earliestFreeSlot(bound, inSubtree);
            moves.add(w.move(moved, target));
        }
    }

    private static void scaleUp(Working w, int bound, List<Move> moves) {
        boolean[] excluded = new boolean[w.nodes];
        while (true) {
            int last = 0;
            for (int v = 1; v < w.nodes; v++) {
                if (w.layer[v] > w.layer[last] || (w.layer[v] == w.layer[last] && v > last)) {
                    last = v;
                }
            }
            if (last == MulticastTree.SOURCE) {
                return;
            }
            excluded[last] = true;
            excluded[w.parent[last]] = true;
            int target = w.earliestFreeSlot(bound, excluded);
            excluded[last] = false;
            excluded[w.parent[last]] = false;
            if (target == -1 || w.layer[target] + w.degree[target] + 1 >= w.layer[last]) {
                return;
            }
            moves.add(w.move(last, target));
        }
    }

    /** A mutable copy of the tree with layers kept up to date; only the planner touches it. */
    private static final class Working {
        final int nodes;
        final int[] parent;
        final int[][] children;
        final int[] degree;
        final int[] layer;

        Working(MulticastTree tree) {
            nodes = tree.nodeCount();
            parent = new int[nodes];
            children = new int[nodes][];
            degree = new int[nodes];
            layer = new int[nodes];
            for (int v = 0; v < nodes; v++) {
                parent[v] = tree.parent(v);
                children[v] = tree.children(v);
                degree[v] = children[v].length;
            }
            relayer();
        }

        /** The node whose next child slot receives earliest, skipping excluded nodes; ties go to the lower id. */
        int earliestFreeSlot(int bound, boolean[] excluded) {
            int best = -1;
            int bestSlot = Integer.MAX_VALUE;
            for (int v = 0; v < nodes; v++) {
                if (!excluded[v] && degree[v] < bound && layer[v] + degree[v] + 1 < bestSlot) {
                    best = v;
                    bestSlot = layer[v] + degree[v] + 1;
                }
            }
            return best;
        }

        boolean[] subtreeOf(int root) {
            boolean[] in = new boolean[nodes];
            int[] stack = new int[nodes];
            int top = 0;
            stack[top++] = root;
            while (top > 0) {
                int v = stack[--top];
                in[v] = true;
                for (int k = 0; k < degree[v]; k++) {
                    stack[top++] = children[v][k];
                }
            }
            return in;
        }

        Move move(int node, int newParent) {
            int old = parent[node];
            int[] list = children[old];
            int at = 0;
            while (list[at] != node) {
                at++;
            }
            System.arraycopy(list, at + 1, list, at, degree[old] - at - 1);
            degree[old]--;
            if (children[newParent].length == degree[newParent]) {
                children[newParent] = Arrays.copyOf(children[newParent], degree[newParent] + 4);
            }
            children[newParent][degree[newParent]++] = node;
            parent[node] = newParent;
            relayer();
            return new Move(node, old, newParent);
        }

        private void relayer() {
            int[] queue = new int[nodes];
            int head = 0;
            int tail = 0;
            queue[tail++] = MulticastTree.SOURCE;
            layer[MulticastTree.SOURCE] = 0;
            while (head < tail) {
                int p = queue[head++];
                for (int k = 0; k < degree[p]; k++) {
                    int c = children[p][k];
                    layer[c] = layer[p] + k + 1;
                    queue[tail++] = c;
                }
            }
        }
    }
}
