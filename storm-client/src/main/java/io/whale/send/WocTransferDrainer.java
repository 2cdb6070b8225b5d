package io.whale.send;

import io.whale.config.WocConfig;
import io.whale.wire.FrameMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.utils.TransferDrainer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker transfer thread's drainer when WOC is on. Stock Storm buckets messages by destination task,
 * which keeps each task's order because every message has one task. A BatchTuple frame addresses several
 * tasks, so bucketing it under any one task could reorder it against a later single-task message for
 * another of its tasks. This drainer keeps one list per destination worker in arrival order, which keeps
 * every (source task, destination task) order, and routes a frame by its {@link FrameMessage#routingTask}.
 */
public final class WocTransferDrainer extends TransferDrainer {
    private static final Logger LOG = LoggerFactory.getLogger(WocTransferDrainer.class);

    private final List<TaskMessage> drained = new ArrayList<>();

    /** Stock Storm's drainer unless the topology has {@code whale.woc.enabled}. */
    public static TransferDrainer forTopology(Map<String, Object> topologyConf) {
        return WocConfig.isEnabled(topologyConf) ? new WocTransferDrainer() : new TransferDrainer();
    }

    @Override
    public void add(TaskMessage taskMsg) {
        drained.add(taskMsg);
    }

    @Override
    public void send(Map<Integer, NodeInfo> taskToNode, Map<NodeInfo, IConnection> connections) {
        Map<NodeInfo, List<TaskMessage>> byWorker = new LinkedHashMap<>();
        for (TaskMessage msg : drained) {
            int task = msg instanceof FrameMessage frame ? frame.routingTask() : msg.task();
            NodeInfo node = taskToNode.get(task);
            if (node == null) {
                LOG.warn("No remote destination available for task {}", task);
            } else {
                byWorker.computeIfAbsent(node, n -> new ArrayList<>()).add(msg);
            }
        }
        for (Map.Entry<NodeInfo, List<TaskMessage>> entry : byWorker.entrySet()) {
            IConnection conn = connections.get(entry.getKey());
            if (conn != null) {
                conn.send(entry.getValue().iterator());
            } else {
                LOG.warn("Connection not available for hostPort {}", entry.getKey());
            }
        }
    }

    @Override
    public void clear() {
        drained.clear();
    }
}
