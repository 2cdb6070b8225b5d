package io.whale.executor;

import io.whale.config.WhaleConfig;
import io.whale.config.WhaleConfigValidation;
import java.util.Locale;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.policy.IWaitStrategy;
import org.apache.storm.utils.ReflectionUtils;

/**
 * Chooses an idle bolt executor's wait strategy from {@link WhaleConfig#BOLT_WAIT}: {@code sleep} gives
 * {@link SleepWhenIdleWaitStrategy}; {@code storm} or unset gives Storm's {@code topology.bolt.wait.strategy},
 * exactly as stock Storm builds it. The caller prepares it.
 */
public final class BoltWaitStrategies {
    public static final String STORM = "storm";
    public static final String SLEEP = "sleep";

    private BoltWaitStrategies() {
    }

    public static IWaitStrategy create(Map<String, Object> topoConf) {
        Object choice = topoConf.get(WhaleConfig.BOLT_WAIT);
        WhaleConfigValidation.check(WhaleConfig.BOLT_WAIT, choice);
        if (choice != null && SLEEP.equals(choice.toString().trim().toLowerCase(Locale.ROOT))) {
            return new SleepWhenIdleWaitStrategy();
        }
        return ReflectionUtils.newInstance((String) topoConf.get(Config.TOPOLOGY_BOLT_WAIT_STRATEGY));
    }
}
