package io.whale.woc;

import io.whale.config.WhaleConfig;
import io.whale.config.WhaleConfigValidation;
import java.util.Map;

/** Reads the worker-oriented communication (WOC) switch, {@link WhaleConfig#WOC_ENABLED}, of a topology conf. */
public final class WocConfig {
    private WocConfig() {
    }

    /**
     * True when the conf switches WOC on: then an emit with several destination tasks on another worker is
     * serialized once and sent to that worker as one {@link BatchTuple} frame. Unset: false, stock Storm.
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
}
