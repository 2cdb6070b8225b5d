package io.whale.woc;

import io.whale.config.WhaleConfig;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.netty.Client;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.utils.JCQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the WOC send and receive paths of one worker share: the switch, the metrics, and handles on the
 * worker's transfer queue, its per-task remote backpressure flags, its task-to-worker map and the
 * {@link FrameWindow}s of its connections. WorkerState
 * creates one per worker; with the switch off it registers nothing and every WOC hook returns at once.
 */
public final class WocWorker {
    private static final Logger LOG = LoggerFactory.getLogger(WocWorker.class);

    private final boolean enabled;
    private final WocMetrics metrics;
    private final JCQueue transferQueue;
    private final AtomicBoolean[] remoteBackPressure;
    private final AtomicReference<Map<Integer, NodeInfo>> taskToNodePort;
    private final Function<NodeInfo, FrameWindow> frameWindows;

    public WocWorker(Map<String, Object> topologyConf, StormMetricRegistry registry, JCQueue transferQueue, AtomicBoolean[] remoteBackPressure,
                     AtomicReference<Map<Integer, NodeInfo>> taskToNodePort,
                     AtomicReference<Map<NodeInfo, IConnection>> connections) {
        this(topologyConf, registry, transferQueue, remoteBackPressure, taskToNodePort,
             node -> windowOf(connections.get().get(node)));
    }

    WocWorker(Map<String, Object> topologyConf, StormMetricRegistry registry, JCQueue transferQueue, AtomicBoolean[] remoteBackPressure,
              AtomicReference<Map<Integer, NodeInfo>> taskToNodePort, Function<NodeInfo, FrameWindow> frameWindows) {
        this.enabled = WocConfig.isEnabled(topologyConf);
        this.metrics = enabled ? new WocMetrics(registry) : null;
        this.transferQueue = transferQueue;
        this.remoteBackPressure = remoteBackPressure;
        this.taskToNodePort = taskToNodePort;
        this.frameWindows = frameWindows;
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

    /** The frame window of the connection to {@code node}: Storm's Netty client has one, other transports none. */
    FrameWindow frameWindow(NodeInfo node) {
        return frameWindows.apply(node);
    }

    private static FrameWindow windowOf(IConnection connection) {
        return connection instanceof Client client ? client.frameWindow() : FrameWindow.UNBOUNDED;
    }
}
