package io.whale.multicast;

import java.util.Locale;

/** The three shapes selectable with {@code whale.multicast.structure}. */
public enum MulticastStructure {
    SEQUENTIAL,
    BINOMIAL,
    NONBLOCKING;

    /** The builder for this shape; {@code maxOutDegree} only matters for {@link #NONBLOCKING}. */
    public TreeBuilder builder(int maxOutDegree) {
        return switch (this) {
            case SEQUENTIAL -> new SequentialTreeBuilder();
            case BINOMIAL -> new BinomialTreeBuilder();
            case NONBLOCKING -> new NonBlockingTreeBuilder(maxOutDegree);
        };
    }

    /** The configuration name: {@code sequential}, {@code binomial} or {@code nonblocking}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static MulticastStructure fromConfigName(String name) {
        for (MulticastStructure s : values()) {
            if (s.configName().equals(name.trim().toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown multicast structure '" + name
                + "', expected sequential, binomial or nonblocking");
    }
}
