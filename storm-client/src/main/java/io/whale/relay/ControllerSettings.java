package io.whale.relay;

import io.whale.config.WhaleConfig;
import io.whale.config.WhaleConfigValidation;
import io.whale.multicast.control.LiveControlConfig;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.utils.ObjectReader;

/**
 * The {@code whale.multicast.*} keys of the controller that reshapes a {@code nonblocking} tree with
 * {@code max.outdegree: auto}, with the model's defaults: Q = {@code topology.transfer.buffer.size}, l_w = Q / 2,
 * T_up = T_down = 0.5, Δt = 100 ms (the design's; the queue is read every 10 ms within it), α = 0.8.
 *
 * @param forcedSwitchMs {@link WhaleConfig#MULTICAST_FORCED_SWITCH_MS}: 0, or switch between a chain and the full
 *                       tree this often whatever the load says (to exercise switching)
 */
public record ControllerSettings(int queueCapacity, int waterline, double scaleUpThreshold, double scaleDownThreshold,
                                 long intervalMs, double rateAlpha, long forcedSwitchMs) {
    private static final int STORM_TRANSFER_BUFFER = 1000;

    public static ControllerSettings of(Map<String, Object> topoConf) {
        int capacity = WhaleConfigValidation.intOr(topoConf, WhaleConfig.MULTICAST_QUEUE_CAPACITY,
            ObjectReader.getInt(topoConf.get(Config.TOPOLOGY_TRANSFER_BUFFER_SIZE), STORM_TRANSFER_BUFFER));
        return new ControllerSettings(capacity,
            Math.min(capacity, WhaleConfigValidation.intOr(topoConf, WhaleConfig.MULTICAST_WATERLINE, Math.max(1, capacity / 2))),
            doubleOr(topoConf, WhaleConfig.MULTICAST_T_UP, 0.5),
            doubleOr(topoConf, WhaleConfig.MULTICAST_T_DOWN, 0.5),
            WhaleConfigValidation.intOr(topoConf, WhaleConfig.MULTICAST_MONITOR_INTERVAL_MS, 100),
            doubleOr(topoConf, WhaleConfig.MULTICAST_RATE_ALPHA, 0.8),
            WhaleConfigValidation.intOr(topoConf, WhaleConfig.MULTICAST_FORCED_SWITCH_MS, 0));
    }

    /** The control law's settings: these, with its tuned constants. */
    public LiveControlConfig control() {
        return LiveControlConfig.of(queueCapacity, waterline, scaleUpThreshold, scaleDownThreshold, intervalMs * 1_000_000L,
            rateAlpha, forcedSwitchMs * 1_000_000L);
    }

    private static double doubleOr(Map<String, Object> topoConf, String key, double fallback) {
        Object value = topoConf.get(key);
        WhaleConfigValidation.check(key, value);
        return value == null ? fallback : ObjectReader.getDouble(value);
    }
}
