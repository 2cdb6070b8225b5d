package io.whale.multicast;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An immutable relay tree over the source (node {@link #SOURCE}) and the destinations {@code 1..n}.
 *
 * <p>Children are kept in send order: a node that receives a tuple in time unit {@code layer(p)} sends it to
 * its k-th child (k counted from 1) in time unit {@code layer(p) + k}. That time unit is the child's
 * {@link #layer(int) logical layer} (the paper's T<sub>i-j</sub> is the j-th node of layer i), so
 * {@link #completionSteps()} is the multicast latency of one tuple in hops of t<sub>e</sub>.
 * {@link #depth()} is the plain hop depth.
 *
 * <p>Every instance is valid by construction: each destination has exactly one parent, the source has none,
 * and every node is reachable from the source (so there is no cycle).
 */
public final class MulticastTree {
    public static final int SOURCE = 0;
    private static final int[] NO_CHILDREN = new int[0];

    private final int[] parent;
    private final int[][] children;
    private final int[] layer;
    private final int[] hops;
    private final int completionSteps;
    private final int depth;
    private final int maxOutDegree;

    private MulticastTree(int[][] children) {
        int nodes = children.length;
        if (nodes < 1) {
            throw new IllegalArgumentException("a tree has at least the source");
        }
        this.children = children;
        this.parent = new int[nodes];
        Arrays.fill(parent, -1);
        for (int p = 0; p < nodes; p++) {
            for (int c : children[p]) {
                if (c <= SOURCE || c >= nodes) {
                    throw new IllegalArgumentException("node " + p + " has an invalid child " + c);
                }
                if (parent[c] != -1) {
                    throw new IllegalArgumentException("node " + c + " has two parents: " + parent[c] + " and " + p);
                }
                parent[c] = p;
            }
        }
        this.layer = new int[nodes];
        this.hops = new int[nodes];
        int visited = 1;
        int maxLayer = 0;
        int maxHops = 0;
        int maxDegree = 0;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(SOURCE);
        while (!queue.isEmpty()) {
            int p = queue.poll();
            int[] kids = children[p];
            maxDegree = Math.max(maxDegree, kids.length);
            for (int k = 0; k < kids.length; k++) {
                int c = kids[k];
                layer[c] = layer[p] + k + 1;
                hops[c] = hops[p] + 1;
                maxLayer = Math.max(maxLayer, layer[c]);
                maxHops = Math.max(maxHops, hops[c]);
                visited++;
                queue.add(c);
            }
        }
        if (visited != nodes) {
            throw new IllegalArgumentException("only " + visited + " of " + nodes + " nodes are reachable from the source");
        }
        this.completionSteps = maxLayer;
        this.depth = maxHops;
        this.maxOutDegree = maxDegree;
    }

    /** Builds a tree from per-node child lists in send order ({@code children[0]} are the source's). */
    public static MulticastTree fromChildren(int[][] children) {
        int[][] copy = new int[children.length][];
        for (int i = 0; i < children.length; i++) {
            copy[i] = children[i] == null || children[i].length == 0 ? NO_CHILDREN : children[i].clone();
        }
        return new MulticastTree(copy);
    }

    /** Number of destinations n (the source is not counted). */
    public int destinations() {
        return children.length - 1;
    }

    /** Number of nodes, n + 1. */
    public int nodeCount() {
        return children.length;
    }

    /** Parent of {@code node}, or -1 for the source. */
    public int parent(int node) {
        return parent[node];
    }

    public int outDegree(int node) {
        return children[node].length;
    }

    /** The k-th child (0-based) of {@code node} in send order. */
    public int child(int node, int k) {
        return children[node][k];
    }

    public int[] children(int node) {
        return children[node].clone();
    }

    /** Time unit in which {@code node} receives a tuple the source starts sending at time 0. */
    public int layer(int node) {
        return layer[node];
    }

    /** Number of edges between the source and {@code node}. */
    public int hops(int node) {
        return hops[node];
    }

    /** Time units until the last destination holds the tuple: the largest layer. */
    public int completionSteps() {
        return completionSteps;
    }

    /** Largest hop count from the source. */
    public int depth() {
        return depth;
    }

    public int maxOutDegree() {
        return maxOutDegree;
    }

    public int sourceOutDegree() {
        return children[SOURCE].length;
    }

    /** Nodes grouped by logical layer; layer 0 holds only the source; each layer is in ascending id order. */
    public List<int[]> layers() {
        int[] counts = new int[completionSteps + 1];
        for (int l : layer) {
            counts[l]++;
        }
        List<int[]> result = new ArrayList<>(completionSteps + 1);
        int[] fill = new int[completionSteps + 1];
        for (int c : counts) {
            result.add(new int[c]);
        }
        for (int v = 0; v < layer.length; v++) {
            result.get(layer[v])[fill[layer[v]]++] = v;
        }
        return result;
    }

    /** True when {@code ancestor} lies on the path from the source to {@code node} (a node is its own ancestor). */
    public boolean isAncestor(int ancestor, int node) {
        for (int v = node; v != -1; v = parent[v]) {
            if (v == ancestor) {
                return true;
            }
        }
        return false;
    }

    /**
     * The tree after {@code move}: its node leaves its old parent's list and becomes the last child of the new
     * parent, taking its subtree along.
     *
     * @throws IllegalArgumentException if the move does not match this tree or would create a cycle
     */
    public MulticastTree apply(Move move) {
        int node = move.node();
        if (node <= SOURCE || node >= children.length || parent[node] != move.oldParent()) {
            throw new IllegalArgumentException(move + " does not match the tree (parent is "
                    + (node > SOURCE && node < children.length ? parent[node] : "undefined") + ")");
        }
        if (move.newParent() < 0 || move.newParent() >= children.length || isAncestor(node, move.newParent())) {
            throw new IllegalArgumentException(move + " would disconnect or loop the tree");
        }
        int[][] next = children.clone();
        int[] old = children[move.oldParent()];
        int[] shrunk = new int[old.length - 1];
        for (int i = 0, j = 0; i < old.length; i++) {
            if (old[i] != node) {
                shrunk[j++] = old[i];
            }
        }
        next[move.oldParent()] = shrunk;
        int[] target = next[move.newParent()];
        int[] grown = Arrays.copyOf(target, target.length + 1);
        grown[target.length] = node;
        next[move.newParent()] = grown;
        return new MulticastTree(next);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MulticastTree other && Arrays.deepEquals(children, other.children);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(children);
    }

    @Override
    public String toString() {
        return "MulticastTree{n=" + destinations() + ", maxOutDegree=" + maxOutDegree + ", completionSteps="
                + completionSteps + ", depth=" + depth + "}";
    }
}
