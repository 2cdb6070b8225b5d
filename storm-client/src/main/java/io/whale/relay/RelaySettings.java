package io.whale.relay;

import io.whale.config.WhaleConfig;
import io.whale.config.WhaleConfigValidation;
import io.whale.multicast.BinomialTreeBuilder;
import io.whale.multicast.MulticastStructure;
import io.whale.multicast.NonBlockingTreeBuilder;
import io.whale.multicast.TreeBuilder;
import io.whale.woc.WocConfig;
import java.util.Map;
import org.apache.storm.utils.ObjectReader;

/**
 * Reads {@link WhaleConfig#MULTICAST_STRUCTURE} and {@link WhaleConfig#MULTICAST_MAX_OUTDEGREE}: which tree, if any,
 * a topology's WOC frames travel along. A tree needs WOC; {@code sequential} (the default) is WOC's own one frame per
 * destination worker. {@code nonblocking} with {@code auto} grows the binomial tree until the controller bounds it.
 */
public final class RelaySettings {
    private RelaySettings() {
    }

    /** The tree builder, or null for no tree (WOC off, or {@code sequential}). */
    public static TreeBuilder treeBuilder(Map<String, Object> topoConf) {
        if (!WocConfig.isEnabled(topoConf)) {
            return null;
        }
        Object structure = topoConf.get(WhaleConfig.MULTICAST_STRUCTURE);
        WhaleConfigValidation.check(WhaleConfig.MULTICAST_STRUCTURE, structure);
        if (structure == null) {
            return null;
        }
        return switch (MulticastStructure.fromConfigName(structure.toString())) {
            case SEQUENTIAL -> null;
            case BINOMIAL -> new BinomialTreeBuilder();
            case NONBLOCKING -> new NonBlockingTreeBuilder(maxOutDegree(topoConf));
        };
    }

    public static boolean isEnabled(Map<String, Object> topoConf) {
        return treeBuilder(topoConf) != null;
    }

    private static int maxOutDegree(Map<String, Object> topoConf) {
        Object value = topoConf.get(WhaleConfig.MULTICAST_MAX_OUTDEGREE);
        WhaleConfigValidation.check(WhaleConfig.MULTICAST_MAX_OUTDEGREE, value);
        return value == null || "auto".equals(value) ? Integer.MAX_VALUE : ObjectReader.getInt(value);
    }
}
