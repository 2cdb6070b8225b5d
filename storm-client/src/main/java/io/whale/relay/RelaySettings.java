package io.whale.relay;

import io.whale.config.WhaleConfig;
import io.whale.config.WhaleConfigValidation;
import io.whale.config.WocConfig;
import io.whale.multicast.BinomialTreeBuilder;
import io.whale.multicast.MulticastStructure;
import io.whale.multicast.NonBlockingTreeBuilder;
import io.whale.multicast.monitor.NanoClock;
import java.util.Map;
import java.util.function.IntSupplier;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.utils.ObjectReader;

/**
 * Reads {@link WhaleConfig#MULTICAST_STRUCTURE} and {@link WhaleConfig#MULTICAST_MAX_OUTDEGREE}: which trees, if
 * any, a topology's WOC frames travel along, and whether their shape is fixed or reshaped live. A tree needs WOC;
 * {@code sequential} (the default) is WOC's own one frame per destination worker. {@code nonblocking} with a whole
 * number is fixed at that d*; with {@code auto} (the default) the controller ({@link ControllerSettings}) sets d*,
 * over either transport (both return the credit that tells when a switch has drained).
 */
public final class RelaySettings {
    private RelaySettings() {
    }

    /** The shaper of the worker's trees, or null for no tree (WOC off, or {@code sequential}). */
    public static TreeShaper shaper(Map<String, Object> topoConf, IntSupplier transferQueueLength,
                                    StormMetricRegistry registry) {
        MulticastStructure structure = WocConfig.structure(topoConf);
        if (structure == null || structure == MulticastStructure.SEQUENTIAL) {
            return null;
        }
        if (structure == MulticastStructure.BINOMIAL) {
            return TreeShaper.fixed(new BinomialTreeBuilder());
        }
        Object degree = topoConf.get(WhaleConfig.MULTICAST_MAX_OUTDEGREE);
        WhaleConfigValidation.check(WhaleConfig.MULTICAST_MAX_OUTDEGREE, degree);
        if (degree != null && !"auto".equals(degree)) {
            return TreeShaper.fixed(new NonBlockingTreeBuilder(ObjectReader.getInt(degree)));
        }
        return TreeShaper.live(ControllerSettings.of(topoConf), transferQueueLength, NanoClock.system(), registry);
    }
}
