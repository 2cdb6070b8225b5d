package io.whale.multicast;

/**
 * Whale's non-blocking tree (Algorithm 1): binomial growth in which no node, the source included, has more
 * than d* children. With d* at least ceil(log2(n + 1)) the bound never binds and the tree is the binomial one.
 */
public final class NonBlockingTreeBuilder implements TreeBuilder {
    private final int maxOutDegree;

    public NonBlockingTreeBuilder(int maxOutDegree) {
        if (maxOutDegree < 1) {
            throw new IllegalArgumentException("d* must be >= 1, got " + maxOutDegree);
        }
        this.maxOutDegree = maxOutDegree;
    }

    @Override
    public MulticastTree build(int destinations) {
        return LayeredGrowth.grow(destinations, effectiveOutDegree(destinations, maxOutDegree));
    }

    public int maxOutDegree() {
        return maxOutDegree;
    }

    /**
     * The source out-degree of the tree built with {@code maxOutDegree}: min(d*, ceil(log2(n + 1))). Two values
     * of d* give the same tree exactly when their effective out-degrees are equal.
     */
    public static int effectiveOutDegree(int destinations, int maxOutDegree) {
        return Math.min(maxOutDegree, Math.max(1, BinomialTreeBuilder.sourceOutDegree(destinations)));
    }
}
