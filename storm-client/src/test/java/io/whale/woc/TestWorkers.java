package io.whale.woc;

import io.whale.flow.FrameWindow;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.utils.JCQueue;

/** A worker's WOC context for the send and receive paths' tests, with its windows and connections given as functions. */
public final class TestWorkers {
    private TestWorkers() {
    }

    public static WocWorker worker(Map<String, Object> conf, StormMetricRegistry registry, JCQueue transferQueue,
                                   AtomicBoolean[] remoteBackPressure, AtomicReference<Map<Integer, NodeInfo>> taskToNodePort,
                                   Function<NodeInfo, FrameWindow> frameWindows, Function<NodeInfo, IConnection> connections) {
        return new WocWorker(conf, registry, transferQueue, remoteBackPressure, taskToNodePort, frameWindows, connections);
    }

    public static Map<Integer, NodeInfo> taskToNodePort(WocWorker worker) {
        return worker.taskToNodePort();
    }
}
