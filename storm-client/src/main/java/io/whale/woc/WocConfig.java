package io.whale.woc;

import java.util.Map;
import org.apache.storm.utils.ObjectReader;

/** Topology conf keys of worker-oriented communication (WOC). */
public final class WocConfig {
    /**
     * {@code whale.woc.enabled}: when true, an emit with several destination tasks on another worker is
     * serialized once and sent to that worker as one {@link BatchTuple} frame. Default false: stock Storm.
     */
    public static final String WOC_ENABLED = "whale.woc.enabled";

    private WocConfig() {
    }

    public static boolean isEnabled(Map<String, Object> topoConf) {
        return topoConf != null && ObjectReader.getBoolean(topoConf.get(WOC_ENABLED), false);
    }
}
