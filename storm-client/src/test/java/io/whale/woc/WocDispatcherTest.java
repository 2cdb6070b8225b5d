package io.whale.woc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.messaging.DeserializingConnectionCallback;
import org.apache.storm.messaging.TaskMessage;
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

    private final Map<String, Object> conf = WocTestTopology.conf();
    private final GeneralTopologyContext context = WocTestTopology.context();
    private final WocWorker worker = new WocWorker(conf, new StormMetricRegistry(), mock(JCQueue.class),
                                                   new AtomicBoolean[0], new AtomicReference<>(Map.of()),
                                                   node -> FrameWindow.UNBOUNDED, node -> null);
    private final List<AddressedTuple> delivered = new ArrayList<>();
    private final DeserializingConnectionCallback callback = new DeserializingConnectionCallback(conf, context,
        delivered::addAll, WocDispatcher.create(worker, conf, context, LOCAL_TASKS));
    private final byte[] values = new KryoValuesSerializer(conf).serialize(List.of("order-9"));

    @Test
    void aFrameBecomesOneTuplePerDestinationWithItsOwnMessageId() {
        byte[] frame = BatchTupleCodec.encode(1, "default", new int[] {2, 4}, List.of(Map.of(7L, 70L), Map.of(7L, 71L)), values);

        callback.recv(List.of(new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, frame)));

        assertEquals(List.of(2, 4), delivered.stream().map(AddressedTuple::getDest).toList());
        Tuple first = delivered.get(0).getTuple();
        Tuple second = delivered.get(1).getTuple();
        assertEquals(List.of("order-9"), first.getValues());
        assertNotSame(first, second);
        assertEquals(MessageId.makeRootId(7L, 70L), first.getMessageId());
        assertEquals(MessageId.makeRootId(7L, 71L), second.getMessageId());
        assertEquals("src", first.getSourceComponent());
        assertEquals(1, first.getSourceTask());
        assertEquals("default", first.getSourceStreamId());
        assertEquals(1, worker.metrics().framesReceived());
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

    @Test
    void offTheCallbackIsStock() {
        List<AddressedTuple> stockDelivered = new ArrayList<>();
        DeserializingConnectionCallback stock = new DeserializingConnectionCallback(conf, context, stockDelivered::addAll);
        byte[] bytes = new KryoTupleSerializer(conf, context).serialize(
            new TupleImpl(context, List.of("plain"), "src", 1, "default", MessageId.makeUnanchored()));

        stock.recv(List.of(new TaskMessage(3, bytes)));

        assertEquals(3, stockDelivered.get(0).getDest());
        assertSame(WocDispatcher.DISABLED, WocDispatcher.create(
            new WocWorker(Map.of(), null, null, null, null, node -> FrameWindow.UNBOUNDED, node -> null), conf, context, LOCAL_TASKS));
        assertTrue(!WocDispatcher.DISABLED.dispatch(new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, bytes), stockDelivered));
    }
}
