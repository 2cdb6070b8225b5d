package io.whale.executor;

import io.whale.config.WhaleConfig;
import io.whale.config.WhaleConfigValidation;
import java.util.Locale;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.policy.IWaitStrategy;
import org.apache.storm.utils.JCQueue;
import org.apache.storm.utils.ReflectionUtils;

/**
 * Chooses an idle bolt executor's wait strategy: {@link WhaleConfig#BOLT_WAIT} {@code wake-on-publish} gives
 * {@link WakeOnPublishWaitStrategy} on the executor's receive queue; {@code storm} or unset gives Storm's
 * {@code topology.bolt.wait.strategy}, exactly as stock Storm builds it. The caller prepares it.
 */
public final class BoltWaitStrategies {
    public static final String STORM = "storm";
    public static final String WAKE_ON_PUBLISH = "wake-on-publish";

    private BoltWaitStrategies() {
    }

    public static IWaitStrategy create(Map<String, Object> topoConf, JCQueue receiveQueue) {
        Object choice = topoConf.get(WhaleConfig.BOLT_WAIT);
        WhaleConfigValidation.check(WhaleConfig.BOLT_WAIT, choice);
        if (choice != null && WAKE_ON_PUBLISH.equals(choice.toString().trim().toLowerCase(Locale.ROOT))) {
            return new WakeOnPublishWaitStrategy(receiveQueue);
        }
        return ReflectionUtils.newInstance((String) topoConf.get(Config.TOPOLOGY_BOLT_WAIT_STRATEGY));
    }
}
