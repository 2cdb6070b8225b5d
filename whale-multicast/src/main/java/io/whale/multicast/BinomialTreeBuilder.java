package io.whale.multicast;

/**
 * RDMC's binomial tree: every node holding the tuple sends it to one new destination per time unit, so the
 * holders double each unit and the source's out-degree is ceil(log2(n + 1)).
 */
public final class BinomialTreeBuilder implements TreeBuilder {
    @Override
    public MulticastTree build(int destinations) {
        return LayeredGrowth.grow(destinations, Math.max(1, sourceOutDegree(destinations)));
    }

    /** ceil(log2(n + 1)): the source's out-degree in a binomial tree over n destinations. */
    public static int sourceOutDegree(int destinations) {
        SequentialTreeBuilder.requireNonNegative(destinations);
        return 32 - Integer.numberOfLeadingZeros(destinations);
    }
}
