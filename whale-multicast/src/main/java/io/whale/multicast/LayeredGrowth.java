package io.whale.multicast;

/**
 * The paper's Algorithm 1: in every round, each node that already holds the tuple and has fewer than
 * {@code maxOutDegree} children gains one new child, scanning nodes in the order they joined. Node ids are
 * handed out in joining order, so the ids of one layer are consecutive.
 */
final class LayeredGrowth {
    private LayeredGrowth() {
    }

    static MulticastTree grow(int destinations, int maxOutDegree) {
        SequentialTreeBuilder.requireNonNegative(destinations);
        if (maxOutDegree < 1) {
            throw new IllegalArgumentException("maxOutDegree must be >= 1, got " + maxOutDegree);
        }
        int nodes = destinations + 1;
        int[] degree = new int[nodes];
        int[] parent = new int[nodes];
        // Senders still below the bound, in joining order (Algorithm 1 skips the others anyway).
        int[] senders = new int[nodes];
        int[] nextSenders = new int[nodes];
        int senderCount = 1;
        int joined = 1;
        while (joined < nodes) {
            int roundStart = joined;
            int nextCount = 0;
            for (int i = 0; i < senderCount; i++) {
                int t = senders[i];
                if (joined < nodes) {
                    parent[joined++] = t;
                    degree[t]++;
                }
                if (degree[t] < maxOutDegree) {
                    nextSenders[nextCount++] = t;
                }
            }
            for (int v = roundStart; v < joined; v++) {
                nextSenders[nextCount++] = v;
            }
            int[] swap = senders;
            senders = nextSenders;
            nextSenders = swap;
            senderCount = nextCount;
        }
        int[][] children = new int[nodes][];
        for (int v = 0; v < nodes; v++) {
            children[v] = new int[degree[v]];
        }
        int[] fill = new int[nodes];
        for (int v = 1; v < nodes; v++) {
            children[parent[v]][fill[parent[v]]++] = v;
        }
        return MulticastTree.fromChildren(children);
    }
}
