package io.whale.send;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.whale.config.WhaleConfig;
import io.whale.wire.BatchTupleMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.utils.TransferDrainer;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;

/** Frames reach the worker of their tasks, in arrival order with the single-task messages. */
class WocTransferDrainerTest {
    private static final NodeInfo WORKER_A = new NodeInfo("node-a", Set.of(6700L));
    private static final NodeInfo WORKER_B = new NodeInfo("node-b", Set.of(6701L));

    @Test
    void keepsArrivalOrderPerWorkerAndRoutesFramesByTheirTasks() {
        Map<NodeInfo, List<TaskMessage>> sent = new HashMap<>();
        Map<NodeInfo, IConnection> connections = Map.of(WORKER_A, recording(WORKER_A, sent), WORKER_B, recording(WORKER_B, sent));
        Map<Integer, NodeInfo> taskToNode = Map.of(2, WORKER_A, 3, WORKER_A, 4, WORKER_B);

        TaskMessage toThree = new TaskMessage(3, new byte[] {1});
        TaskMessage frame = new BatchTupleMessage(3, new byte[] {2});
        TaskMessage toTwo = new TaskMessage(2, new byte[] {3});
        TaskMessage toFour = new TaskMessage(4, new byte[] {4});
        TransferDrainer drainer = new WocTransferDrainer();
        drainer.add(frame);
        drainer.add(toFour);
        drainer.add(toTwo);
        drainer.add(toThree);
        drainer.send(taskToNode, connections);

        assertEquals(List.of(frame, toTwo, toThree), sent.get(WORKER_A),
            "a single-task message emitted after a frame to the same task must not overtake it");
        assertEquals(List.of(toFour), sent.get(WORKER_B));

        drainer.clear();
        sent.clear();
        drainer.send(taskToNode, connections);
        assertEquals(Map.of(), sent);
    }

    @Test
    void stockDrainerWhenWocIsOff() {
        assertSame(TransferDrainer.class, WocTransferDrainer.forTopology(Map.of()).getClass());
        assertInstanceOf(WocTransferDrainer.class, WocTransferDrainer.forTopology(Map.of(WhaleConfig.WOC_ENABLED, true)));
    }

    private static IConnection recording(NodeInfo node, Map<NodeInfo, List<TaskMessage>> sent) {
        IConnection conn = Mockito.mock(IConnection.class);
        Mockito.doAnswer(inv -> {
            Iterator<TaskMessage> it = inv.getArgument(0);
            it.forEachRemaining(m -> sent.computeIfAbsent(node, n -> new ArrayList<>()).add(m));
            return null;
        }).when(conn).send(Mockito.<Iterator<TaskMessage>>any());
        return conn;
    }
}
