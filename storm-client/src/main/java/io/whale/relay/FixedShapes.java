package io.whale.relay;

import io.whale.multicast.MulticastTree;
import io.whale.multicast.NonBlockingTreeBuilder;
import io.whale.multicast.TreeBuilder;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** {@code binomial}, or {@code nonblocking} with a whole-number d*: one shape per number of members, epoch 0. */
final class FixedShapes extends TreeShaper {
    private final TreeBuilder builder;
    private final ConcurrentMap<Integer, MulticastTree> trees = new ConcurrentHashMap<>();

    FixedShapes(TreeBuilder builder) {
        this.builder = builder;
    }

    @Override
    public boolean isLive() {
        return false;
    }

    @Override
    public MulticastTree shape(int epoch, int members) {
        return trees.computeIfAbsent(members, builder::build);
    }

    @Override
    public String describe() {
        return builder instanceof NonBlockingTreeBuilder fixed ? "nonblocking, d* " + fixed.maxOutDegree() : "binomial";
    }
}
