package io.whale.send;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.whale.config.WhaleConfig;
import io.whale.flow.FrameWindow;
import io.whale.flow.WindowSizer;
import io.whale.wire.BatchTuple;
import io.whale.wire.BatchTupleCodec;
import io.whale.wire.BatchTupleMessage;
import io.whale.wire.RelayFrame;
import io.whale.wire.RelayFrameCodec;
import io.whale.wire.RelayFrameMessage;
import io.whale.woc.TestWorkers;
import io.whale.woc.WocMetrics;
import io.whale.woc.WocTestTopology;
import io.whale.woc.WocWorker;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.ConnectionWithStatus;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.netty.Client;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.serialization.KryoValuesDeserializer;
import org.apache.storm.serialization.KryoValuesSerializer;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.AddressedTuple;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.utils.JCQueue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The send path groups the remote copies of one emit by worker and falls back to the stock path when it must. */
class WocEmitBatcherTest {
    private static final NodeInfo WORKER_A = new NodeInfo("node-a", Set.of(6700L));
    private static final NodeInfo WORKER_B = new NodeInfo("node-b", Set.of(6701L));
    private static final NodeInfo WORKER_C = new NodeInfo("node-c", Set.of(6702L));
    private static final List<Object> VALUES = List.of("order-1", 7L);

    private final GeneralTopologyContext context = WocTestTopology.context();
    private final Map<String, Object> conf = WocTestTopology.conf();
    private final List<Object> published = new ArrayList<>();
    private final List<AddressedTuple> stockSent = new ArrayList<>();
    private final AtomicBoolean[] backPressure = new AtomicBoolean[20];
    private final AtomicInteger valueSerializations = new AtomicInteger();
    private final Queue<AddressedTuple> pending = new ArrayDeque<>();
    private final Map<NodeInfo, FrameWindow> windows = new HashMap<>();
    private final Map<NodeInfo, IConnection> connections = new HashMap<>();
    private JCQueue transferQueue;
    private WocWorker worker;
    private WocEmitBatcher batcher;

    @BeforeEach
    void setUp() {
        setUp(conf);
    }

    private void setUp(Map<String, Object> conf) {
        for (int i = 0; i < backPressure.length; i++) {
            backPressure[i] = new AtomicBoolean();
        }
        transferQueue = mock(JCQueue.class);
        when(transferQueue.tryPublish(any())).thenAnswer(inv -> published.add(inv.getArgument(0)));
        Map<Integer, NodeInfo> taskToNode = new HashMap<>();
        taskToNode.put(2, WORKER_A);
        taskToNode.put(3, WORKER_A);
        taskToNode.put(4, WORKER_B);
        taskToNode.put(5, WORKER_B);
        taskToNode.put(6, WORKER_B);
        taskToNode.put(7, WORKER_C);
        worker = TestWorkers.worker(conf, new StormMetricRegistry(), transferQueue, backPressure,
                               new AtomicReference<>(taskToNode), node -> windows.getOrDefault(node, FrameWindow.UNBOUNDED),
                               connections::get);
        KryoValuesSerializer kryo = new KryoValuesSerializer(conf);
        batcher = new WocEmitBatcher(worker, values -> {
            valueSerializations.incrementAndGet();
            return kryo.serialize(values);
        }, (tuple, pendingEmits) -> stockSent.add(tuple));
    }

    @Test
    void serializesOnceAndSendsOneFramePerWorkerWithSeveralTasks() {
        emit(2, 3, 4, 5, 6, 7);

        assertEquals(1, valueSerializations.get(), "the values are serialized once per emit");
        assertEquals(2, published.size());
        assertFrame(published.get(0), 2, 3);
        assertFrame(published.get(1), 4, 5, 6);
        assertEquals(List.of(7), dests(stockSent), "a worker with one destination task gets a stock TaskMessage");
        WocMetrics metrics = worker.metrics();
        assertEquals(2, metrics.framesSent());
        assertEquals(5, metrics.frameDestinations());
        assertEquals(1, metrics.emits());
        assertEquals(2, metrics.serializations(), "one for the frames, one for the stock copy to task 7");
        assertEquals(((BatchTupleMessage) published.get(0)).message().length, metrics.bytesSentTo(WORKER_A));
    }

    @Test
    void framesCarryEachDestinationsOwnMessageId() {
        Random random = new Random(5);
        long[] edgeIds = new long[2];
        try (WocEmitBatcher.Batch batch = batcher.beginEmit(2, pending)) {
            edgeIds[0] = batch.edgeId(random, 0, List.of(100L), 2);
            MessageId first = batch.rootMessageId(100L, edgeIds[0]);
            assertEquals(Map.of(100L, edgeIds[0]), first.getAnchorsToIds(), "a spout copy's id holds its root and edge id");
            batcher.collect(tuple(2, first));
            edgeIds[1] = batch.edgeId(random, 0, List.of(100L), 3);
            batcher.collect(tuple(3, batch.rootMessageId(100L, edgeIds[1])));
        }

        BatchTuple frame = BatchTupleCodec.decode(((BatchTupleMessage) published.get(0)).message());
        assertEquals(List.of(Map.of(100L, edgeIds[0]), Map.of(100L, edgeIds[1])), List.of(frame.seeds().idsOf(2), frame.seeds().idsOf(3)),
            "the receiving worker derives each copy's ids from the frame's seeds");
        assertNotEquals(edgeIds[0], edgeIds[1]);
        assertEquals(WocTestTopology.SOURCE_TASK, frame.sourceTask());
        assertEquals("default", frame.stream());
    }

    @Test
    void singleDestinationEmitsAreNotBatched() {
        WocEmitBatcher.Batch none = batcher.beginEmit(1, pending);
        assertFalse(batcher.collect(tuple(2, MessageId.makeUnanchored())), "no batch is open, the stock path sends it");
        assertEquals(new Random(5).nextLong(), none.edgeId(new Random(5), 0, List.of(100L), 2), "Storm's own draw");
        assertEquals(MessageId.makeRootId(100L, 7L), none.rootMessageId(100L, 7L), "Storm's own message id");
    }

    @Test
    void oneRemoteCopyOfAWiderEmitGoesTheStockWay() {
        emit(4);
        assertTrue(published.isEmpty());
        assertEquals(List.of(4), dests(stockSent));
    }

    @Test
    void disabledBatcherNeverCollects() {
        WocEmitBatcher.DISABLED.beginEmit(10, pending);
        assertFalse(WocEmitBatcher.DISABLED.collect(tuple(2, MessageId.makeUnanchored())));
    }

    @Test
    void shouldHoldTheFrameOfAWorkerWithATaskUnderBackPressureUntilItClears() {
        backPressure[5].set(true);
        emit(2, 3, 4, 5, 6);

        assertEquals(1, published.size());
        assertFrame(published.get(0), 2, 3);
        assertTrue(stockSent.isEmpty(), "worker B's copies are not re-serialized one by one");
        AddressedTuple held = pending.poll();
        assertFalse(batcher.retryHeld(held, null), "task 5 is still under backpressure");

        backPressure[5].set(false);
        assertTrue(batcher.retryHeld(held, null));
        assertFrame(published.get(1), 4, 5, 6);
        assertEquals(1, valueSerializations.get(), "the held frame was encoded once, with its emit");
        assertEquals(1, worker.metrics().framesHeld());
    }

    @Test
    void pendingEmitsKeepTheirOrderAheadOfNewFrames() {
        AddressedTuple earlier = tuple(9, MessageId.makeUnanchored());
        pending.add(earlier);
        emit(2, 3);

        assertTrue(published.isEmpty());
        assertSame(earlier, pending.poll());
        AddressedTuple held = pending.poll();
        assertTrue(batcher.holds(held), "the frame waits behind it, whole");
        assertEquals(2, held.getDest(), "in the place of its first copy");
        assertSame(VALUES, held.getTuple().getValues(), "which is the tuple it is");
        assertTrue(pending.isEmpty());
        assertTrue(batcher.retryHeld(held, null));
        assertFrame(published.get(0), 2, 3);
        assertFalse(batcher.holds(held), "sent: the batcher holds it no longer");
    }

    @Test
    void aFullTransferQueueParksTheFrameInPendingEmitsAndGivesItsWindowRoomBack() {
        FrameWindow windowB = connectedWindow(WORKER_B, 1);
        when(transferQueue.tryPublish(any())).thenReturn(false);
        emit(4, 5, 6);

        assertEquals(1, pending.size(), "nothing is dropped");
        assertTrue(batcher.holds(pending.peek()));
        assertEquals(0, worker.metrics().framesSent());
        assertEquals(0, windowB.inFlight(), "the frame did not leave, so it holds no room in the window");
    }

    @Test
    void shouldHoldFramesBeyondTheDestinationWorkersWindowUntilCreditReturns() {
        FrameWindow windowB = connectedWindow(WORKER_B, 4);
        emit(4, 5);
        emit(4, 5);
        emit(2, 3, 4, 5);

        assertEquals(3, published.size(), "two frames of two tuples to B fill its window, worker A's frame is not held back");
        assertFrame(published.get(2), 2, 3);
        assertEquals(1, pending.size());
        AddressedTuple held = pending.peek();
        assertFalse(batcher.retryHeld(held, null));

        assertEquals(0, worker.metrics().windowBlockedNanos(), "counted when the frame leaves");

        windowB.credit(2);
        assertTrue(batcher.retryHeld(held, null));
        assertFrame(published.get(3), 4, 5);
        assertTrue(worker.metrics().windowBlockedNanos() > 0, "the time the frame waited for the window is counted");
        assertEquals(4, windowB.inFlight());
        assertEquals(1, worker.metrics().framesHeld());
        assertEquals(3, valueSerializations.get(), "once per emit, never again for the retry");
    }

    @Test
    void shouldTimeAnEmitUntilItsLastDestinationWorkerCreditedItsFrame() {
        FrameWindow windowA = connectedWindow(WORKER_A, 64);
        FrameWindow windowB = connectedWindow(WORKER_B, 64);
        emit(2, 3, 4, 5);

        windowA.credit(2);
        assertEquals(0, worker.metrics().multicastsDelivered(), "worker B has not credited its frame yet");
        windowB.credit(2);
        assertEquals(1, worker.metrics().multicastsDelivered());
    }

    @Test
    void shouldTimeOnlyTheEmitsTheSamplerPicksAndPairEachWithItsOwnFramesCredit() {
        FrameWindow windowA = connectedWindow(WORKER_A, 64);
        AtomicInteger asked = new AtomicInteger();
        batcher = new WocEmitBatcher(worker, new KryoValuesSerializer(conf)::serialize, (tuple, pendingEmits) -> stockSent.add(tuple),
            task -> true, () -> asked.incrementAndGet() % 3 == 0);
        for (int emit = 0; emit < 6; emit++) {
            emit(2, 3);
        }

        windowA.credit(2 * 2);
        assertEquals(0, worker.metrics().multicastsDelivered(), "the first two emits were not sampled");
        windowA.credit(2);
        assertEquals(1, worker.metrics().multicastsDelivered(), "the third was");
        windowA.credit(3 * 2);
        assertEquals(2, worker.metrics().multicastsDelivered(), "and the sixth: two of six timed");
        assertEquals(6, asked.get(), "asked once per emit");
    }

    @Test
    void shouldTimeAHeldFrameFromItsEmitNotFromWhenItLeft() {
        FrameWindow windowB = connectedWindow(WORKER_B, 2);
        emit(4, 5);
        emit(4, 5);
        AddressedTuple held = pending.peek();
        windowB.credit(2);
        assertEquals(1, worker.metrics().multicastsDelivered());

        long heldFor = System.nanoTime();
        await().atMost(Duration.ofSeconds(5)).until(() -> System.nanoTime() - heldFor > 20_000_000L);
        assertTrue(batcher.retryHeld(held, null));
        windowB.credit(2);
        assertEquals(2, worker.metrics().multicastsDelivered());
        assertTrue(worker.metrics().multicastMicros() >= 20_000, "the second emit waited 20 ms for the window: "
            + worker.metrics().multicastMicros() + " us in all");
    }

    @Test
    void shouldNotHoldFramesWhileTheConnectionIsDown() {
        FrameWindow windowB = connectedWindow(WORKER_B, 1);
        windowB.onDisconnected();
        emit(4, 5);
        emit(4, 5);

        assertEquals(2, published.size(), "with no connection the client drops them as stock Storm would; holding would stall the spout");
        assertTrue(pending.isEmpty());
    }

    @Test
    void shouldDropFramesForAStalledWorkerCountedAndKeepSendingToTheOthers() {
        AtomicLong clock = new AtomicLong();
        FrameWindow windowB = new FrameWindow(2, 0, 1_000_000_000L, clock::get);
        windowB.onConnected();
        windows.put(WORKER_B, windowB);
        emit(2, 3, 4, 5);
        emit(2, 3, 4, 5);
        assertEquals(1, pending.size(), "B's window is full: its frame waits");

        clock.set(999_000_000L);
        assertFalse(batcher.retryHeld(pending.poll(), pending));
        clock.set(1_000_000_000L);
        assertTrue(batcher.retryHeld(pending.poll(), pending), "no credit for 1 s: the held frame is dropped, not parked again");
        emit(2, 3, 4, 5);

        assertTrue(pending.isEmpty(), "nothing holds the executor");
        assertEquals(List.of(WORKER_A, WORKER_B, WORKER_A, WORKER_A), frameWorkers(), "A has every frame, B the first");
        assertEquals(4, worker.metrics().tuplesDroppedStalled());

        windowB.credit(2);
        emit(2, 3, 4, 5);
        assertEquals(List.of(WORKER_A, WORKER_B, WORKER_A, WORKER_A, WORKER_A, WORKER_B), frameWorkers(), "B's credit ends the stall");
    }

    @Test
    void shouldSendAStalledWorkersFramesIntoTheStallBufferBeforeDroppingAny() {
        AtomicLong clock = new AtomicLong();
        FrameWindow windowB = new FrameWindow(2, 0, 1_000_000_000L, 1, clock::get);
        windowB.onConnected();
        windows.put(WORKER_B, windowB);
        emit(2, 3, 4, 5);
        emit(2, 3, 4, 5);
        assertEquals(1, pending.size(), "B's window is full: its frame waits");

        clock.set(1_000_000_000L);
        assertTrue(batcher.retryHeld(pending.poll(), pending), "no credit for 1 s: the held frame goes on, beyond the window");
        emit(2, 3, 4, 5);

        assertTrue(pending.isEmpty(), "nothing holds the executor");
        assertEquals(List.of(WORKER_A, WORKER_B, WORKER_A, WORKER_B, WORKER_A), frameWorkers(),
            "B has the held frame, sent into its 1-byte stall buffer; the next is dropped");
        assertEquals(2, worker.metrics().tuplesSentStalled());
        assertEquals(2, worker.metrics().tuplesDroppedStalled());
        assertEquals(4, windowB.inFlight(), "the frame sent beyond the window owes its credit");
    }

    private List<NodeInfo> frameWorkers() {
        return published.stream().map(m -> ((BatchTupleMessage) m).routingTask()).map(task -> task < 4 ? WORKER_A : WORKER_B).toList();
    }

    private FrameWindow connectedWindow(NodeInfo node, int capacity) {
        FrameWindow window = new FrameWindow(capacity);
        window.onConnected();
        windows.put(node, window);
        return window;
    }

    @Test
    void aTaskWithUnknownWorkerGoesTheStockWay() {
        emit(2, 3, 12);
        assertEquals(List.of(12), dests(stockSent));
        assertFrame(published.get(0), 2, 3);
    }

    @Test
    void shouldSendTheCopiesCollectedBeforeAnEmitThrewAndLeaveNoBatchOpen() {
        RuntimeException badTuple = new IllegalStateException("a local copy could not be serialized");
        RuntimeException thrown = assertThrows(IllegalStateException.class, () -> {
            try (WocEmitBatcher.Batch batch = batcher.beginEmit(4, pending)) {
                batcher.collect(tuple(2, MessageId.makeUnanchored()));
                batcher.collect(tuple(3, MessageId.makeUnanchored()));
                throw badTuple;
            }
        });

        assertSame(badTuple, thrown);
        assertFrame(published.get(0), 2, 3);
        AddressedTuple ackToRemoteAcker = tuple(4, MessageId.makeUnanchored());
        assertFalse(batcher.collect(ackToRemoteAcker), "the next single-task send (an ack) takes the stock path");
        emit(4, 5);
        assertFrame(published.get(1), 4, 5);
    }

    @Test
    void shouldAddAFailedSendToTheEmitsExceptionAndStillCloseTheBatch() {
        WocEmitBatcher failing = new WocEmitBatcher(worker, values -> {
            throw new IllegalArgumentException("unserializable values");
        }, (tuple, pendingEmits) -> stockSent.add(tuple));
        RuntimeException emitFailure = new IllegalStateException("emit failed half-way");

        RuntimeException thrown = assertThrows(IllegalStateException.class, () -> {
            try (WocEmitBatcher.Batch batch = failing.beginEmit(3, pending)) {
                failing.collect(tuple(2, MessageId.makeUnanchored()));
                failing.collect(tuple(3, MessageId.makeUnanchored()));
                throw emitFailure;
            }
        });

        assertSame(emitFailure, thrown);
        assertInstanceOf(IllegalArgumentException.class, thrown.getSuppressed()[0]);
        assertFalse(failing.collect(tuple(2, MessageId.makeUnanchored())), "no batch stays open");
    }

    @Test
    void shouldSendABatchItsCallerNeverClosedBeforeOpeningTheNext() {
        batcher.beginEmit(3, pending);
        batcher.collect(tuple(2, MessageId.makeUnanchored()));
        batcher.collect(tuple(3, MessageId.makeUnanchored()));

        batcher.beginEmit(1, pending);

        assertFrame(published.get(0), 2, 3);
        assertFalse(batcher.collect(tuple(4, MessageId.makeUnanchored())));
    }

    @Test
    void shouldSendTheChildrenOfAnUnreachableRelayTheirFramesFromTheSourceUntilItIsBack() {
        Map<NodeInfo, Client> clients = binomialTreeOverReadyClients();

        emit(2, 3, 4, 5, 6, 7);
        List<RelayFrame> whole = relayFrames();
        assertEquals(2, whole.size(), "binomial over three members: two children of the source, one of them a relay");
        RelayFrame viaRelay = whole.stream().filter(f -> !f.children().isEmpty()).findFirst().orElseThrow();
        NodeInfo relay = TestWorkers.taskToNodePort(worker).get(viaRelay.tasks()[0]);
        int orphanTask = viaRelay.children().get(0).firstTask();

        published.clear();
        when(clients.get(relay).status()).thenReturn(ConnectionWithStatus.Status.Connecting);
        emit(2, 3, 4, 5, 6, 7);
        List<RelayFrame> around = relayFrames();
        assertEquals(2, around.size());
        assertTrue(around.stream().noneMatch(f -> f.tasks()[0] == viaRelay.tasks()[0]), "nothing is sent to the relay");
        assertTrue(around.stream().anyMatch(f -> f.tasks()[0] == orphanTask), "its child gets its frame from the source");
        assertEquals(1, worker.relay().metrics().repairs());
        assertEquals(viaRelay.tasks().length, worker.relay().metrics().lostTuples(), "the relay's own tuples");

        published.clear();
        when(clients.get(relay).status()).thenReturn(ConnectionWithStatus.Status.Ready);
        emit(2, 3, 4, 5, 6, 7);
        assertEquals(whole.stream().map(f -> f.tasks()[0]).toList(), relayFrames().stream().map(f -> f.tasks()[0]).toList(),
            "the tree is whole again");
    }

    @Test
    void shouldSendTheAllGroupedCopiesOfAnEmitAlongTheTreeAndItsOtherCopiesTheirOwnWay() {
        binomialTreeOverReadyClients();
        KryoValuesSerializer kryo = new KryoValuesSerializer(conf);
        // task 7 fields-grouped from the same stream, as ride-hailing's aggregator takes each order beside its matchers
        batcher = new WocEmitBatcher(worker, kryo::serialize, (tuple, pendingEmits) -> stockSent.add(tuple), task -> task != 7,
            () -> true);

        emit(2, 3, 4, 5, 6, 7);

        Set<Integer> alongTree = new HashSet<>();
        published.stream().filter(RelayFrameMessage.class::isInstance)
            .map(m -> RelayFrameCodec.decode(((RelayFrameMessage) m).message()))
            .forEach(frame -> {
                Arrays.stream(frame.tasks()).forEach(alongTree::add);
                Arrays.stream(frame.routeTasks()).forEach(alongTree::add);
            });
        assertEquals(Set.of(2, 3, 4, 5, 6), alongTree, "the all-grouped copies took the tree, not frames of their own");
        assertEquals(List.of(7), stockSent.stream().map(AddressedTuple::getDest).toList(), "the other copy went its own way");
    }

    @Test
    void shouldSendAWorkersAllGroupedCopiesInItsOneFrameWhenNoOtherWorkerHasAny() {
        binomialTreeOverReadyClients();
        KryoValuesSerializer kryo = new KryoValuesSerializer(conf);
        batcher = new WocEmitBatcher(worker, values -> {
            valueSerializations.incrementAndGet();
            return kryo.serialize(values);
        }, (tuple, pendingEmits) -> stockSent.add(tuple), task -> task == 2, () -> true);

        emit(2, 3, 4, 5, 6, 7);

        assertTrue(published.stream().noneMatch(RelayFrameMessage.class::isInstance), "one member is no tree");
        assertEquals(List.of(WORKER_A, WORKER_B), frameWorkers(), "task 2's copy rides in worker A's frame with task 3's");
        assertEquals(List.of(7), stockSent.stream().map(AddressedTuple::getDest).toList());
        assertEquals(1, valueSerializations.get());
    }

    @Test
    void shouldNotSendAroundAStalledRelayWhileATaskBelowItIsUnderBackPressure() {
        Map<NodeInfo, Client> clients = binomialTreeOverReadyClients();
        emit(2, 3, 4, 5, 6, 7);
        RelayFrame viaRelay = relayFrames().stream().filter(f -> !f.children().isEmpty()).findFirst().orElseThrow();
        Client relay = clients.get(TestWorkers.taskToNodePort(worker).get(viaRelay.tasks()[0]));
        AtomicLong clock = new AtomicLong();
        FrameWindow stalled = new FrameWindow(2, 0, 1_000_000_000L, clock::get);
        stalled.onConnected();
        stalled.tryAcquire(2);
        stalled.refused();
        clock.set(1_000_000_000L);
        when(relay.frameWindow()).thenReturn(stalled);
        backPressure[viaRelay.routeTasks()[0]].set(true);

        published.clear();
        emit(2, 3, 4, 5, 6, 7);
        assertEquals(0, worker.relay().metrics().repairs(), "the relay waits for its child, whose queues are full: alive, not sent around");
        assertEquals(0, worker.relay().metrics().lostTuples());
        assertFalse(pending.isEmpty(), "the relay's frame waits for the child's backpressure to end");

        backPressure[viaRelay.routeTasks()[0]].set(false);
        pending.clear();
        emit(2, 3, 4, 5, 6, 7);
        assertEquals(1, worker.relay().metrics().repairs(), "no backpressure below it: the stalled relay is sent around");
    }

    @Test
    void shouldSendAStalledRelayItsOwnTuplesAloneWhileItsChildGetsItsFrameFromTheSource() {
        Map<NodeInfo, Client> clients = binomialTreeOverReadyClients();
        emit(2, 3, 4, 5, 6, 7);
        RelayFrame viaRelay = relayFrames().stream().filter(f -> !f.children().isEmpty()).findFirst().orElseThrow();
        int orphanTask = viaRelay.children().get(0).firstTask();
        AtomicLong clock = new AtomicLong();
        FrameWindow stalled = windowToRelay(viaRelay, clients, 2, clock);
        stalled.tryAcquire(2);
        stalled.refused();
        clock.set(1_000_000_000L);

        published.clear();
        emit(2, 3, 4, 5, 6, 7);
        List<RelayFrame> frames = relayFrames();
        RelayFrame alone = frames.stream().filter(f -> f.tasks()[0] == viaRelay.tasks()[0]).findFirst().orElseThrow();
        assertArrayEquals(viaRelay.tasks(), alone.tasks(), "the stalled relay is sent its own tuples");
        assertTrue(alone.children().isEmpty(), "alone: its child is not sent through it");
        assertTrue(frames.stream().anyMatch(f -> f.tasks()[0] == orphanTask), "its child gets its frame from the source");
        assertEquals(viaRelay.tasks().length, worker.relay().metrics().sentStalledTuples());
        assertEquals(2 + viaRelay.tasks().length, stalled.inFlight(), "sent into the stall buffer, beyond the window");
        assertTrue(pending.isEmpty(), "nothing holds the executor");
    }

    @Test
    void shouldSendTheFramesAStalledRelayOwedOnToItsChildThenTheFrameHeldForItAroundIt() {
        Map<NodeInfo, Client> clients = binomialTreeOverReadyClients();
        when(transferQueue.isEmptyOverflow()).thenReturn(true);
        when(transferQueue.tryPublishDirect(any())).thenAnswer(inv -> published.add(inv.getArgument(0)));
        emit(2, 3, 4, 5, 6, 7);
        RelayFrame viaRelay = relayFrames().stream().filter(f -> !f.children().isEmpty()).findFirst().orElseThrow();
        int orphanTask = viaRelay.children().get(0).firstTask();
        AtomicLong clock = new AtomicLong();
        windowToRelay(viaRelay, clients, 1, clock);
        emit(2, 3, 4, 5, 6, 7);
        emit(2, 3, 4, 5, 6, 7);
        assertEquals(2, pending.size(), "the relay's window is full: its frame of the third emit waits, the other child's behind it");

        clock.set(1_000_000_000L);
        published.clear();
        assertTrue(batcher.retryHeld(pending.poll(), null), "no credit for 1 s: the held frame is sent around the relay");
        List<RelayFrame> frames = relayFrames();
        assertEquals(List.of(orphanTask, orphanTask, viaRelay.tasks()[0], orphanTask), frames.stream().map(f -> f.tasks()[0]).toList(),
            "the relay's child is sent the two frames the relay owed, then the held one; the relay its own tuples of it alone");
        assertEquals(List.of(1L, 2L, 3L, 3L), frames.stream().map(RelayFrame::seq).toList(), "in order, each once");
        assertTrue(frames.get(2).children().isEmpty());
        assertEquals(2L * viaRelay.tasks().length, worker.relay().metrics().lostTuples(),
            "the relay's own tuples of the frames it owed: a slow relay may still deliver them");
    }

    @Test
    void shouldSizeTheWindowOfARelayForTheDelayAtEveryWorkerItsFramesPassThrough() {
        Map<String, Object> treeConf = WocTestTopology.conf();
        treeConf.put(WhaleConfig.MULTICAST_STRUCTURE, "binomial");
        connections.putAll(Map.of(WORKER_A, readyClient(), WORKER_B, readyClient(), WORKER_C, readyClient()));
        setUp(treeConf);
        AtomicLong clock = new AtomicLong();
        for (NodeInfo node : List.of(WORKER_A, WORKER_B, WORKER_C)) {
            FrameWindow window = new FrameWindow(8192, 50, 0, clock::get);
            window.onConnected();
            windows.put(node, window);
        }
        emit(2, 3, 4, 5, 6, 7);
        RelayFrame viaRelay = relayFrames().stream().filter(f -> !f.children().isEmpty()).findFirst().orElseThrow();
        RelayFrame leaf = relayFrames().stream().filter(f -> f.children().isEmpty()).findFirst().orElseThrow();

        clock.set(1_000_000L);
        FrameWindow relayWindow = windows.get(TestWorkers.taskToNodePort(worker).get(viaRelay.tasks()[0]));
        FrameWindow leafWindow = windows.get(TestWorkers.taskToNodePort(worker).get(leaf.tasks()[0]));
        relayWindow.credit(viaRelay.subtreeTasks());
        leafWindow.credit(leaf.subtreeTasks());

        assertEquals(viaRelay.subtreeTasks() * (1 + 2 * 50), relayWindow.sizedCapacity(), 1,
            "its subtree's tuples in 1 ms x (1 ms + 50 ms at each of two workers)");
        assertEquals(Math.max(WindowSizer.FLOOR_TUPLES, leaf.subtreeTasks() * (1 + 50)), leafWindow.sizedCapacity(), 1,
            "a leaf: 50 ms, or the floor");
    }

    @Test
    void shouldTimeTheRoundTripsOfItsWindowsAgainOnceTheTreesWereReshaped() {
        Map<String, Object> treeConf = WocTestTopology.conf();
        treeConf.put(WhaleConfig.MULTICAST_STRUCTURE, "nonblocking");
        treeConf.put(WhaleConfig.MULTICAST_FORCED_SWITCH_MS, 1);
        connections.putAll(Map.of(WORKER_A, readyClient(), WORKER_B, readyClient(), WORKER_C, readyClient()));
        setUp(treeConf);
        long builtAt = System.nanoTime();
        AtomicLong clock = new AtomicLong();
        FrameWindow windowB = new FrameWindow(8192, 50, 0, clock::get);
        windowB.onConnected();
        windows.put(WORKER_B, windowB);
        windowB.tryAcquire(5000);
        clock.set(1_000_000L);
        windowB.credit(5000);
        assertEquals(8192, windowB.sizedCapacity(), "5,000 tuples credited in 1 ms: the whole window");

        // The first emit after the forced interval (1 ms) asks for a switch; the trees flip once its frames are credited.
        await().atMost(Duration.ofSeconds(5)).until(() -> System.nanoTime() - builtAt > 2_000_000L);
        emit(2, 3, 4, 5, 6, 7);
        assertEquals(1, worker.shaper().encodingEpoch());
        assertEquals(8192, windowB.sizedCapacity(), "not before the trees flipped");

        for (NodeInfo child : List.of(WORKER_A, WORKER_B, WORKER_C)) {
            worker.shaper().credited(child, 6);
        }
        assertTrue(windowB.sizedCapacity() < 8192, "drained to time the new path's round trip: " + windowB.sizedCapacity());
    }

    /**
     * A window of {@code capacity} tuples to the relay of {@code viaRelay}'s frame, stalled after 1 s without credit on
     * {@code clock}, with a stall buffer of 1 MiB: the send path's and the relay's.
     */
    private FrameWindow windowToRelay(RelayFrame viaRelay, Map<NodeInfo, Client> clients, int capacity, AtomicLong clock) {
        NodeInfo relay = TestWorkers.taskToNodePort(worker).get(viaRelay.tasks()[0]);
        FrameWindow window = new FrameWindow(capacity, 0, 1_000_000_000L, 1 << 20, clock::get);
        window.onConnected();
        windows.put(relay, window);
        when(clients.get(relay).frameWindow()).thenReturn(window);
        return window;
    }

    private List<RelayFrame> relayFrames() {
        return published.stream().map(m -> RelayFrameCodec.decode(((RelayFrameMessage) m).message())).toList();
    }

    /** Sets the batcher up for a binomial tree over workers A, B and C, each connected: their clients. */
    private Map<NodeInfo, Client> binomialTreeOverReadyClients() {
        Map<String, Object> treeConf = WocTestTopology.conf();
        treeConf.put(WhaleConfig.MULTICAST_STRUCTURE, "binomial");
        Map<NodeInfo, Client> clients = Map.of(WORKER_A, readyClient(), WORKER_B, readyClient(), WORKER_C, readyClient());
        connections.putAll(clients);
        setUp(treeConf);
        return clients;
    }

    private static Client readyClient() {
        Client client = mock(Client.class);
        when(client.status()).thenReturn(ConnectionWithStatus.Status.Ready);
        when(client.frameWindow()).thenReturn(FrameWindow.UNBOUNDED);
        return client;
    }

    private void emit(int... remoteDests) {
        try (WocEmitBatcher.Batch batch = batcher.beginEmit(remoteDests.length + 1, pending)) {
            for (int dest : remoteDests) {
                assertTrue(batcher.collect(tuple(dest, MessageId.makeUnanchored())));
            }
        }
        assertFalse(batcher.collect(tuple(2, MessageId.makeUnanchored())), "the batch closes with the emit");
    }

    private AddressedTuple tuple(int dest, MessageId id) {
        return new AddressedTuple(dest, new TupleImpl(context, VALUES, "src", WocTestTopology.SOURCE_TASK, "default", id));
    }

    private void assertFrame(Object message, int... dests) {
        BatchTupleMessage frameMessage = (BatchTupleMessage) message;
        assertEquals(BatchTupleMessage.FRAME_TASK_ID, frameMessage.task());
        assertEquals(dests[0], frameMessage.routingTask());
        BatchTuple frame = BatchTupleCodec.decode(frameMessage.message());
        assertArrayEquals(dests, frame.destTasks());
        assertEquals(VALUES, new KryoValuesDeserializer(conf).deserializeFrom(
            new com.esotericsoftware.kryo.io.Input(frame.frame(), frame.valuesOffset(), frame.valuesLength())));
    }

    private static List<Integer> dests(List<AddressedTuple> tuples) {
        return tuples.stream().map(AddressedTuple::getDest).toList();
    }
}
