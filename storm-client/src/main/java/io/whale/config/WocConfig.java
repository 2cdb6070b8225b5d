package io.whale.config;

import io.whale.multicast.MulticastStructure;
import java.util.Map;

/**
 * Reads the worker-oriented communication (WOC) switch, {@link WhaleConfig#WOC_ENABLED}, of a topology conf, and
 * which structure its frames travel along ({@link WhaleConfig#MULTICAST_STRUCTURE}).
 */
public final class WocConfig {
    private WocConfig() {
    }

    /**
     * True when the conf switches WOC on: then an emit with several destination tasks on another worker is
     * serialized once and sent to that worker as one BatchTuple frame. Unset: false, stock Storm.
     *
     * @throws IllegalArgumentException naming the key when its value is not a boolean (a submit refuses that
     *     already; this guards confs that reach a worker some other way)
     */
    public static boolean isEnabled(Map<String, Object> topoConf) {
        if (topoConf == null) {
            return false;
        }
        Object value = topoConf.get(WhaleConfig.WOC_ENABLED);
        WhaleConfigValidation.check(WhaleConfig.WOC_ENABLED, value);
        return Boolean.TRUE.equals(value);
    }

    /** The structure WOC frames travel along, or null without WOC; {@code sequential} when unset. */
    public static MulticastStructure structure(Map<String, Object> topoConf) {
        if (!isEnabled(topoConf)) {
            return null;
        }
        Object structure = topoConf.get(WhaleConfig.MULTICAST_STRUCTURE);
        WhaleConfigValidation.check(WhaleConfig.MULTICAST_STRUCTURE, structure);
        return structure == null ? MulticastStructure.SEQUENTIAL : MulticastStructure.fromConfigName(structure.toString());
    }

    /** Whether WOC frames travel along relay trees ({@code binomial} or {@code nonblocking}), not one per worker. */
    public static boolean isRelayed(Map<String, Object> topoConf) {
        MulticastStructure structure = structure(topoConf);
        return structure != null && structure != MulticastStructure.SEQUENTIAL;
    }
}
