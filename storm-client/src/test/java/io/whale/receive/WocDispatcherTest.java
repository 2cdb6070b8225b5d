package io.whale.receive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.whale.flow.FrameWindow;
import io.whale.flow.RelayInbound;
import io.whale.multicast.BinomialTreeBuilder;
import io.whale.relay.RelayMember;
import io.whale.relay.RelayMetrics;
import io.whale.relay.TreeShaper;
import io.whale.wire.BatchTupleCodec;
import io.whale.wire.BatchTupleMessage;
import io.whale.wire.EdgeSeeds;
import io.whale.wire.RelayCredit;
import io.whale.wire.RelayFrameCodec;
import io.whale.wire.RelayFrameMessage;
import io.whale.wire.RelayRoute;
import io.whale.woc.TestWorkers;
import io.whale.woc.WocMetrics;
import io.whale.woc.WocTestTopology;
import io.whale.woc.WocWorker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.storm.daemon.Acker;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.ConnectionWithStatus;
import org.apache.storm.messaging.DeserializingConnectionCallback;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.netty.Client;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.serialization.KryoTupleSerializer;
import org.apache.storm.serialization.KryoValuesSerializer;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.AddressedTuple;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.utils.JCQueue;
import org.junit.jupiter.api.Test;

/** The receive path, through the patched DeserializingConnectionCallback. */
class WocDispatcherTest {
    private static final List<Integer> LOCAL_TASKS = List.of(2, 3, 4);
    private static final int ACKER_TASK = 5;

    private final Map<String, Object> conf = WocTestTopology.conf();
    private final GeneralTopologyContext context = WocTestTopology.context();
    private final WocWorker worker = TestWorkers.worker(conf, new StormMetricRegistry(), mock(JCQueue.class),
                                                   new AtomicBoolean[0], new AtomicReference<>(Map.of()),
                                                   node -> FrameWindow.UNBOUNDED, node -> null);
    private final List<AddressedTuple> delivered = new ArrayList<>();
    private final DeserializingConnectionCallback callback = new DeserializingConnectionCallback(conf, context,
        delivered::addAll, WocDispatcher.create(worker, conf, context, LOCAL_TASKS));
    private final byte[] values = new KryoValuesSerializer(conf).serialize(List.of("order-9"));

    private static final EdgeSeeds ROOT_7 = EdgeSeeds.of(new long[] {70L}, new long[][] {{7L}});
    private static final long EDGE_OF_2 = EdgeSeeds.edgeId(70L, 2);
    private static final long EDGE_OF_4 = EdgeSeeds.edgeId(70L, 4);

    @Test
    void aFrameBecomesOneTuplePerDestinationWithItsOwnMessageId() {
        byte[] frame = BatchTupleCodec.encode(1, "default", new int[] {2, 4}, ROOT_7, values);

        callback.recv(List.of(new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, frame)));

        assertEquals(List.of(2, 4), delivered.stream().map(AddressedTuple::getDest).toList());
        Tuple first = delivered.get(0).getTuple();
        Tuple second = delivered.get(1).getTuple();
        assertEquals(List.of("order-9"), first.getValues());
        assertNotSame(first, second);
        assertEquals(MessageId.makeRootId(7L, EDGE_OF_2), first.getMessageId());
        assertEquals(MessageId.makeRootId(7L, EDGE_OF_4), second.getMessageId());
        assertEquals("src", first.getSourceComponent());
        assertEquals(1, first.getSourceTask());
        assertEquals("default", first.getSourceStreamId());
        assertEquals(1, worker.metrics().framesReceived());
    }

    @Test
    void shouldHaveTheWorkersAckCombiningWaitForEveryTaskAnAnchoredFrameReachedHere() {
        byte[] frame = BatchTupleCodec.encode(1, "default", new int[] {2, 4}, ROOT_7, values);
        try {
            callback.recv(List.of(new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, frame)));

            assertNull(worker.acks().collect(ack(2, 7L, EDGE_OF_2), null), "task 4 has not acked yet");
            AddressedTuple both = worker.acks().collect(ack(4, 7L, EDGE_OF_4), null);
            assertEquals(List.of(7L, EDGE_OF_2 ^ EDGE_OF_4), both.getTuple().getValues(),
                "the last task's ack takes the other's with it");
        } finally {
            worker.close();
        }
    }

    @Test
    void aMalformedFrameIsCountedAndDroppedWhileTheRestOfTheBatchArrives() {
        byte[] good = BatchTupleCodec.encode(1, "default", new int[] {2, 3}, null, values);
        byte[] garbled = good.clone();
        garbled[garbled.length / 2] ^= 0x10;
        byte[] foreignTask = BatchTupleCodec.encode(1, "default", new int[] {2, 99}, null, values);
        byte[] undeclaredStream = BatchTupleCodec.encode(1, "nope", new int[] {2, 3}, null, values);
        TaskMessage stock = new TaskMessage(4, new KryoTupleSerializer(conf, context).serialize(
            new TupleImpl(context, List.of("plain"), "src", 1, "default", MessageId.makeUnanchored())));

        callback.recv(List.of(
            new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, garbled),
            new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, null),
            new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, foreignTask),
            new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, undeclaredStream),
            stock,
            new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, good)));

        assertEquals(List.of(4, 2, 3), delivered.stream().map(AddressedTuple::getDest).toList());
        assertEquals(List.of("plain"), delivered.get(0).getTuple().getValues());
        assertEquals(4, worker.metrics().malformedFrames());
        assertEquals(1, worker.metrics().framesReceived());
    }

    @Test
    void shouldShareOneValuesListAmongAFramesDestinationTasksAsStockSharesItAmongLocalTasks() {
        byte[] frame = BatchTupleCodec.encode(1, "default", new int[] {2, 3, 4}, null, values);

        callback.recv(List.of(new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, frame)));

        List<Object> shared = delivered.get(0).getTuple().getValues();
        assertTrue(delivered.stream().allMatch(t -> t.getTuple().getValues() == shared),
            "deserialized once per frame: tuples are immutable in Storm, and a bolt that mutates its input's values "
            + "races with the frame's other destination tasks on this worker (documented in the README)");
    }

    @Test
    void shouldDeliverTheLocalCopiesOfAStaleFrameAndCountTheDroppedOnesApartFromMalformed() {
        byte[] rebalanced = BatchTupleCodec.encode(1, "default", new int[] {2, 5, 3, 6}, null, values);

        callback.recv(List.of(new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, rebalanced)));

        assertEquals(List.of(2, 3), delivered.stream().map(AddressedTuple::getDest).toList(),
            "tasks 5 and 6 are in the topology but no longer on this worker");
        assertEquals(1, worker.metrics().staleFrames());
        assertEquals(2, worker.metrics().staleDestinations());
        assertEquals(0, worker.metrics().malformedFrames());
    }

    @Test
    void serializedSizeMetricsShareAFramesBytesAmongItsDestinations() {
        Map<String, Object> sizeConf = new java.util.HashMap<>(conf);
        sizeConf.put(org.apache.storm.Config.TOPOLOGY_SERIALIZED_MESSAGE_SIZE_METRICS, true);
        DeserializingConnectionCallback sized = new DeserializingConnectionCallback(sizeConf, context, delivered::addAll,
            WocDispatcher.create(worker, sizeConf, context, LOCAL_TASKS));
        byte[] frame = BatchTupleCodec.encode(1, "default", new int[] {2, 3, 4}, null, values);

        sized.recv(List.of(new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, frame)));

        @SuppressWarnings("unchecked")
        Map<String, Long> bytes = (Map<String, Long>) sized.getValueAndReset();
        assertEquals(java.util.Set.of("1-2", "1-3", "1-4"), bytes.keySet());
        assertEquals(frame.length, bytes.values().stream().mapToLong(Long::longValue).sum(), "the pairs add up to the frame");
        long min = bytes.values().stream().mapToLong(Long::longValue).min().orElseThrow();
        long max = bytes.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        assertTrue(max - min <= 1, "shared evenly: " + bytes);
    }

    /**
     * A relay frame is checked before its member forwards it: one whose values do not fit its stream, or whose route
     * names a task that is not the topology's, is sent to no child, counted malformed, and credited to its sender at
     * once; a sound one is forwarded to its child and delivered here.
     */
    @Test
    void shouldForwardARelayFrameOnlyOnceItPassedEveryCheckAndCreditARefusedOneAtOnce() {
        List<Object> published = new ArrayList<>();
        JCQueue transferQueue = mock(JCQueue.class);
        when(transferQueue.isEmptyOverflow()).thenReturn(true);
        when(transferQueue.tryPublishDirect(any())).thenAnswer(call -> published.add(call.getArgument(0)));
        NodeInfo child = new NodeInfo("child", Set.of(6700L));
        Client toChild = mock(Client.class);
        when(toChild.status()).thenReturn(ConnectionWithStatus.Status.Ready);
        when(toChild.frameWindow()).thenReturn(new FrameWindow(10));
        RelayMember member = new RelayMember(77L, transferQueue, () -> Map.of(5, child, 6, child), node -> toChild,
            TreeShaper.fixed(new BinomialTreeBuilder()), held -> new RelayMetrics(new StormMetricRegistry(), held::get), System::nanoTime, task -> false, 0L);
        WocMetrics metrics = new WocMetrics(new StormMetricRegistry(), node -> FrameWindow.UNBOUNDED);
        WocDispatcher dispatcher = new WocDispatcher(metrics, conf, context, Set.copyOf(LOCAL_TASKS), member, io.whale.ack.AckCombiner.OFF);
        List<RelayCredit.Entry> credited = new ArrayList<>();
        Consumer<TaskMessage> inbound = message -> credited.addAll(RelayCredit.parse(message.message()));
        RelayRoute route = new RelayRoute(new int[] {2, 3}, List.of(RelayRoute.leaf(5)));
        byte[] twoValues = new KryoValuesSerializer(conf).serialize(List.of("order-9", "extra"));

        dispatcher.dispatch(relayMessage(1, route, twoValues), delivered, inbound);
        dispatcher.dispatch(relayMessage(2, new RelayRoute(new int[] {2}, List.of(RelayRoute.leaf(99))), values), delivered, inbound);
        assertEquals(List.of(), published, "neither refused frame reached the child");
        assertEquals(List.of(), delivered);
        assertEquals(2, metrics.malformedFrames());
        assertEquals(List.of(new RelayCredit.Entry(11L, 3), new RelayCredit.Entry(11L, 2)), credited,
            "credited on the connection they came in on");

        dispatcher.dispatch(relayMessage(3, route, values), delivered, inbound);
        assertEquals(1, published.size(), "the sound frame went to its child");
        assertEquals(List.of(2, 3), delivered.stream().map(AddressedTuple::getDest).toList());
    }

    private AddressedTuple ack(int task, long root, long value) {
        return new AddressedTuple(ACKER_TASK, new TupleImpl(context, List.of(root, value), "sink", task, Acker.ACKER_ACK_STREAM_ID));
    }

    private static TaskMessage relayMessage(long seq, RelayRoute route, byte[] values) {
        return new TaskMessage(RelayFrameMessage.FRAME_TASK_ID,
            RelayFrameCodec.encode(1, "default", 11L, 4, seq, route, null, values));
    }

    @Test
    void offTheCallbackIsStock() {
        List<AddressedTuple> stockDelivered = new ArrayList<>();
        DeserializingConnectionCallback stock = new DeserializingConnectionCallback(conf, context, stockDelivered::addAll);
        byte[] bytes = new KryoTupleSerializer(conf, context).serialize(
            new TupleImpl(context, List.of("plain"), "src", 1, "default", MessageId.makeUnanchored()));

        stock.recv(List.of(new TaskMessage(3, bytes)));

        assertEquals(3, stockDelivered.get(0).getDest());
        assertSame(WocDispatcher.DISABLED, WocDispatcher.create(
            TestWorkers.worker(Map.of(), null, null, null, null, node -> FrameWindow.UNBOUNDED, node -> null), conf, context, LOCAL_TASKS));
        assertTrue(!WocDispatcher.DISABLED.dispatch(new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, bytes), stockDelivered, RelayInbound.NONE));
    }
}
