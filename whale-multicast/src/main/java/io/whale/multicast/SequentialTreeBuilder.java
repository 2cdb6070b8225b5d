package io.whale.multicast;

/** Stock Storm's shape: the source sends every tuple to every destination itself (out-degree n). */
public final class SequentialTreeBuilder implements TreeBuilder {
    @Override
    public MulticastTree build(int destinations) {
        requireNonNegative(destinations);
        int[][] children = new int[destinations + 1][];
        children[MulticastTree.SOURCE] = new int[destinations];
        for (int v = 1; v <= destinations; v++) {
            children[MulticastTree.SOURCE][v - 1] = v;
        }
        return MulticastTree.fromChildren(children);
    }

    static void requireNonNegative(int destinations) {
        if (destinations < 0) {
            throw new IllegalArgumentException("destinations must be >= 0, got " + destinations);
        }
    }
}
