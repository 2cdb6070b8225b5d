package io.whale.woc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;

import io.whale.flow.FrameWindow;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.utils.JCQueue;
import org.junit.jupiter.api.Test;

class TaskWorkersTest {
    private static final NodeInfo A = new NodeInfo("host-a", Set.of(6700L));
    private static final NodeInfo B = new NodeInfo("host-b", Set.of(6700L));

    @Test
    void tasksOfEqualNodeInfosShareOneWorkerIndex() {
        // Storm deserializes every executor's NodeInfo on its own: equal, not the same object.
        TaskWorkers workers = TaskWorkers.of(Map.of(1, A, 2, B, 3, new NodeInfo("host-a", Set.of(6700L)), 4, B));

        assertEquals(2, workers.count());
        assertEquals(workers.workerOf(1), workers.workerOf(3));
        assertEquals(workers.workerOf(2), workers.workerOf(4));
        assertEquals(A, workers.worker(workers.workerOf(3)));
        assertEquals(B, workers.worker(workers.workerOf(2)));
    }

    @Test
    void aTaskTheAssignmentDoesNotPlaceHasNoWorker() {
        TaskWorkers workers = TaskWorkers.of(Map.of(2, A));

        assertEquals(TaskWorkers.NONE, workers.workerOf(1));
        assertEquals(TaskWorkers.NONE, workers.workerOf(3));
        assertEquals(TaskWorkers.NONE, workers.workerOf(-1));
        assertEquals(0, TaskWorkers.of(null).count());
    }

    @Test
    void theWorkerBuildsThemAgainOnlyWhenItsTaskMapIsReplaced() {
        AtomicReference<Map<Integer, NodeInfo>> taskToNode = new AtomicReference<>(Map.of(1, A));
        WocWorker worker = new WocWorker(WocTestTopology.conf(), new StormMetricRegistry(), mock(JCQueue.class),
                                         new AtomicBoolean[0], taskToNode, node -> FrameWindow.UNBOUNDED, node -> null);

        TaskWorkers first = worker.taskWorkers();
        assertSame(first, worker.taskWorkers());
        assertTrue(first.isOf(taskToNode.get()));

        taskToNode.set(Map.of(1, B, 2, A));
        TaskWorkers second = worker.taskWorkers();
        assertFalse(second.isOf(Map.of(1, A)));
        assertEquals(B, second.worker(second.workerOf(1)));
        assertEquals(A, second.worker(second.workerOf(2)));
    }
}
