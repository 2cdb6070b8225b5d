package io.whale.woc;

import io.whale.config.WhaleConfig;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.utils.JCQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the WOC send and receive paths of one worker share: the switch, the metrics, and handles on the
 * worker's transfer queue, its per-task remote backpressure flags and its task-to-worker map. WorkerState
 * creates one per worker; with the switch off it registers nothing and every WOC hook returns at once.
 */
public final class WocWorker {
    private static final Logger LOG = LoggerFactory.getLogger(WocWorker.class);

    private final boolean enabled;
    private final WocMetrics metrics;
    private final JCQueue transferQueue;
    private final AtomicBoolean[] remoteBackPressure;
    private final AtomicReference<Map<Integer, NodeInfo>> taskToNodePort;

    public WocWorker(Map<String, Object> topologyConf, StormMetricRegistry registry, JCQueue transferQueue, AtomicBoolean[] remoteBackPressure,
                     AtomicReference<Map<Integer, NodeInfo>> taskToNodePort) {
        this.enabled = WocConfig.isEnabled(topologyConf);
        this.metrics = enabled ? new WocMetrics(registry) : null;
        this.transferQueue = transferQueue;
        this.remoteBackPressure = remoteBackPressure;
        this.taskToNodePort = taskToNodePort;
        LOG.info("Worker-oriented communication ({}): {}", WhaleConfig.WOC_ENABLED, enabled ? "on" : "off");
    }

    public boolean isEnabled() {
        return enabled;
    }

    /** Null when WOC is off. */
    public WocMetrics metrics() {
        return metrics;
    }

    JCQueue transferQueue() {
        return transferQueue;
    }

    boolean isUnderBackPressure(int remoteTask) {
        return remoteBackPressure[remoteTask].get();
    }

    Map<Integer, NodeInfo> taskToNodePort() {
        return taskToNodePort.get();
    }
}
