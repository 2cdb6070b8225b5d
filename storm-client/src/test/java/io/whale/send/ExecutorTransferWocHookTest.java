package io.whale.send;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.whale.flow.FrameWindow;
import io.whale.wire.BatchTupleCodec;
import io.whale.wire.BatchTupleMessage;
import io.whale.woc.TestWorkers;
import io.whale.woc.WocTestTopology;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.daemon.worker.WorkerState;
import org.apache.storm.executor.ExecutorTransfer;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.task.WorkerTopologyContext;
import org.apache.storm.tuple.AddressedTuple;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.utils.JCQueue;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/** The patched ExecutorTransfer: local copies stay local, remote copies of a bracketed emit become frames. */
class ExecutorTransferWocHookTest {
    private static final NodeInfo OTHER_WORKER = new NodeInfo("node-b", Set.of(6701L));

    private final GeneralTopologyContext context = WocTestTopology.context();
    private final JCQueue localQueue = mock(JCQueue.class);
    private final JCQueue transferQueue = mock(JCQueue.class);
    private final List<Object> published = new ArrayList<>();
    private final Queue<AddressedTuple> pending = new ArrayDeque<>();
    private final FrameWindow frameWindow = new FrameWindow(1);

    @Test
    void bracketedEmitKeepsLocalCopiesLocalAndSendsOneFrameForTheRemoteOnes() {
        when(localQueue.tryPublish(any())).thenReturn(true);
        when(transferQueue.tryPublish(any())).thenAnswer(inv -> published.add(inv.getArgument(0)));
        WorkerState worker = workerWithLocalTask2(WocTestTopology.conf());
        ExecutorTransfer transfer = new ExecutorTransfer(worker, WocTestTopology.conf());
        transfer.initLocalRecvQueues();

        try (WocEmitBatcher.Batch batch = transfer.getWocBatcher().beginEmit(4, pending)) {
            for (int dest : new int[] {2, 3, 4, 5}) {
                transfer.tryTransfer(tuple(dest), pending);
            }
        }

        verify(localQueue).tryPublish(any(AddressedTuple.class));
        verify(worker, never()).tryTransferRemote(any(), any(), any());
        assertEquals(1, published.size());
        BatchTupleMessage frame = assertInstanceOf(BatchTupleMessage.class, published.get(0));
        assertArrayEquals(new int[] {3, 4, 5}, BatchTupleCodec.decode(frame.message()).destTasks());
        assertTrue(pending.isEmpty());
    }

    @Test
    void shouldRetryAHeldFrameWholeWhenTheExecutorFlushesItsPendingEmits() {
        when(localQueue.tryPublish(any())).thenReturn(true);
        when(transferQueue.tryPublish(any())).thenAnswer(inv -> published.add(inv.getArgument(0)));
        WorkerState worker = workerWithLocalTask2(WocTestTopology.conf());
        ExecutorTransfer transfer = new ExecutorTransfer(worker, WocTestTopology.conf());
        transfer.initLocalRecvQueues();
        frameWindow.onConnected();

        for (int emit = 0; emit < 2; emit++) {
            try (WocEmitBatcher.Batch batch = transfer.getWocBatcher().beginEmit(3, pending)) {
                for (int dest : new int[] {3, 4, 5}) {
                    transfer.tryTransfer(tuple(dest), pending);
                }
            }
        }
        assertEquals(1, published.size(), "a window of one tuple lets the first emit's frame out, alone");
        assertEquals(1, pending.size(), "the second waits whole, as one pending emit");

        AddressedTuple held = pending.peek();
        assertFalse(transfer.tryTransfer(held, null), "no credit yet: the executor's retry leaves it pending");
        frameWindow.credit(3);
        assertTrue(transfer.tryTransfer(held, null));

        verify(worker, never()).tryTransferRemote(any(), any(), any());
        assertEquals(2, published.size());
        assertArrayEquals(new int[] {3, 4, 5}, BatchTupleCodec.decode(((BatchTupleMessage) published.get(1)).message()).destTasks());
    }

    @Test
    void withWocOffEveryRemoteCopyTakesTheStockPath() {
        when(localQueue.tryPublish(any())).thenReturn(true);
        WorkerState worker = workerWithLocalTask2(Utils.readDefaultConfig());
        when(worker.tryTransferRemote(any(), any(), any())).thenReturn(true);
        ExecutorTransfer transfer = new ExecutorTransfer(worker, Utils.readDefaultConfig());
        transfer.initLocalRecvQueues();

        try (WocEmitBatcher.Batch batch = transfer.getWocBatcher().beginEmit(4, pending)) {
            for (int dest : new int[] {2, 3, 4, 5}) {
                transfer.tryTransfer(tuple(dest), pending);
            }
        }

        verify(worker, times(3)).tryTransferRemote(any(), any(), any());
        verify(transferQueue, never()).tryPublish(any());
    }

    private WorkerState workerWithLocalTask2(Map<String, Object> wocConf) {
        WorkerState worker = mock(WorkerState.class);
        WorkerTopologyContext workerContext = mock(WorkerTopologyContext.class);
        when(workerContext.getRawTopology()).thenReturn(context.getRawTopology());
        when(worker.getWorkerTopologyContext()).thenReturn(workerContext);
        when(worker.getLocalReceiveQueues()).thenReturn(Map.of(2, localQueue));
        AtomicBoolean[] backPressure = new AtomicBoolean[8];
        for (int i = 0; i < backPressure.length; i++) {
            backPressure[i] = new AtomicBoolean();
        }
        Map<Integer, NodeInfo> taskToNode = Map.of(3, OTHER_WORKER, 4, OTHER_WORKER, 5, OTHER_WORKER);
        when(worker.getWoc()).thenReturn(TestWorkers.worker(wocConf, new StormMetricRegistry(), transferQueue, backPressure,
                                                       new AtomicReference<>(taskToNode), node -> frameWindow, node -> null));
        return worker;
    }

    private AddressedTuple tuple(int dest) {
        return new AddressedTuple(dest, new TupleImpl(context, List.of("w"), "src", WocTestTopology.SOURCE_TASK, "default",
                                                      MessageId.makeUnanchored()));
    }
}
