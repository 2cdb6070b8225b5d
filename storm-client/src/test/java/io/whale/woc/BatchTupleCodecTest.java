package io.whale.woc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.esotericsoftware.kryo.io.Input;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Example;
import org.apache.storm.serialization.KryoValuesDeserializer;
import org.apache.storm.serialization.KryoValuesSerializer;

/** A frame decodes to exactly what was encoded; the values come back through the topology's Kryo. */
class BatchTupleCodecTest {
    private static final Map<String, Object> CONF = WocTestTopology.conf();
    private final KryoValuesSerializer serializer = new KryoValuesSerializer(CONF);
    private final KryoValuesDeserializer deserializer = new KryoValuesDeserializer(CONF);

    @Property(tries = 300)
    void roundTripKeepsEveryField(@ForAll int sourceTask, @ForAll("streams") String stream, @ForAll("frames") FrameInput in) {
        byte[] values = serializer.serialize(in.values());

        BatchTuple decoded = BatchTupleCodec.decode(BatchTupleCodec.encode(sourceTask, stream, in.dests(), in.messageIds(), values));

        assertEquals(sourceTask, decoded.sourceTask());
        assertEquals(stream, decoded.stream());
        assertArrayEquals(in.dests(), decoded.destTasks());
        assertEquals(in.messageIds(), decoded.messageIds());
        List<Object> back = deserializer.deserializeFrom(new Input(decoded.frame(), decoded.valuesOffset(), decoded.valuesLength()));
        assertTrue(Arrays.deepEquals(in.values().toArray(), back.toArray()), () -> in.values() + " came back as " + back);
    }

    @Example
    void unanchoredFrameCarriesNoMessageIds() {
        byte[] frame = BatchTupleCodec.encode(1, "default", new int[] {2, 3}, null, serializer.serialize(List.of("x")));
        BatchTuple decoded = BatchTupleCodec.decode(frame);
        assertFalse(decoded.hasMessageIds());
        assertNull(decoded.messageIds());
    }

    @Example
    void lengthsLargerThanTheFrameAreRejectedBeforeAllocating() {
        byte[] frame = BatchTupleCodec.encode(1, "s", new int[] {2, 3}, List.of(Map.of(1L, 2L), Map.of(3L, 4L)),
                                              serializer.serialize(List.of("x")));
        // header, source task, stream length, "s", destination count, tasks 2 and 3 as one-byte varint deltas
        int anchorCountOffset = 3 + 4 + 2 + 1 + 2 + 2;
        ByteBuffer.wrap(frame).putInt(anchorCountOffset, Integer.MAX_VALUE);
        BatchTupleFuzzTest.reseal(frame);

        MalformedBatchTupleException e = assertThrows(MalformedBatchTupleException.class, () -> BatchTupleCodec.decode(frame));
        assertTrue(e.getMessage().contains("message id anchors"), e.getMessage());
    }

    @Example
    void nearbyDestinationTasksTakeOneByteEach() {
        byte[] values = serializer.serialize(List.of("x"));
        int[] tasks = new int[32];
        for (int i = 0; i < tasks.length; i++) {
            tasks[i] = 40 + 2 * i;
        }
        byte[] one = BatchTupleCodec.encode(1, "s", new int[] {40}, null, values);
        byte[] all = BatchTupleCodec.encode(1, "s", tasks, null, values);
        assertEquals(tasks.length - 1, all.length - one.length, "one byte per further destination task");
        assertArrayEquals(tasks, BatchTupleCodec.decode(all).destTasks());
    }

    @Example
    void overlongDestinationVarintIsRejected() {
        byte[] frame = BatchTupleCodec.encode(1, "s", new int[] {2}, null, serializer.serialize(List.of("x")));
        byte[] longer = new byte[frame.length + 5];
        int dest = 3 + 4 + 2 + 1 + 2;
        System.arraycopy(frame, 0, longer, 0, dest);
        java.util.Arrays.fill(longer, dest, dest + 6, (byte) 0xFF);
        System.arraycopy(frame, dest + 1, longer, dest + 6, frame.length - dest - 1);
        BatchTupleFuzzTest.reseal(longer);
        MalformedBatchTupleException e = assertThrows(MalformedBatchTupleException.class, () -> BatchTupleCodec.decode(longer));
        assertTrue(e.getMessage().contains("varint"), e.getMessage());
    }

    @Example
    void aDestinationTaskNamedTwiceIsRefusedBothWays() {
        byte[] values = serializer.serialize(List.of("x"));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> BatchTupleCodec.encode(1, "s", new int[] {2, 3, 2}, null, values));
        assertTrue(refused.getMessage().contains("names destination task 2 twice"), refused.getMessage());

        byte[] frame = BatchTupleCodec.encode(1, "s", new int[] {2, 3}, null, values);
        // header, source task, stream length, "s", destination count, then task 2 and task 3's delta to it (1)
        frame[3 + 4 + 2 + 1 + 2 + 1] = (byte) FrameFields.zigZag(0);
        BatchTupleFuzzTest.reseal(frame);
        MalformedBatchTupleException e = assertThrows(MalformedBatchTupleException.class, () -> BatchTupleCodec.decode(frame));
        assertTrue(e.getMessage().contains("names destination task 2 twice"), e.getMessage());
    }

    @Example
    void framesFromAnotherVersionAreRefusedByName() {
        byte[] frame = BatchTupleCodec.encode(1, "s", new int[] {2}, null, serializer.serialize(List.of("x")));
        frame[1] = 9;
        MalformedBatchTupleException e = assertThrows(MalformedBatchTupleException.class, () -> BatchTupleCodec.decode(frame));
        assertTrue(e.getMessage().contains("unsupported BatchTuple version 9"), e.getMessage());
    }

    @Provide
    Arbitrary<String> streams() {
        return Arbitraries.strings().ofMinLength(1).ofMaxLength(40);
    }

    @Provide
    Arbitrary<FrameInput> frames() {
        Arbitrary<int[]> dests = Arbitraries.integers().between(0, 100_000).array(int[].class).ofMinSize(1).ofMaxSize(40)
            .uniqueElements();
        Arbitrary<Boolean> anchored = Arbitraries.of(true, false);
        Arbitrary<List<Object>> values = value().list().ofMinSize(1).ofMaxSize(6);
        return Combinators.combine(dests, anchored, values, Arbitraries.longs().list().ofMinSize(0).ofMaxSize(8))
            .as((d, a, v, seeds) -> new FrameInput(d, a ? messageIds(d.length, seeds) : null, v));
    }

    private static List<Map<Long, Long>> messageIds(int count, List<Long> seeds) {
        List<Map<Long, Long>> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            java.util.HashMap<Long, Long> m = new java.util.HashMap<>();
            for (int j = 0; j < (i % (seeds.size() + 1)); j++) {
                m.put(seeds.get(j) + i, seeds.get(j) ^ i);
            }
            ids.add(m);
        }
        return ids;
    }

    private static Arbitrary<Object> value() {
        return Arbitraries.oneOf(
            Arbitraries.integers().map(i -> (Object) i),
            Arbitraries.longs().map(l -> (Object) l),
            Arbitraries.doubles().map(d -> (Object) d),
            Arbitraries.strings().ofMaxLength(30).map(s -> (Object) s),
            Arbitraries.of(true, false).map(b -> (Object) b),
            Arbitraries.bytes().array(byte[].class).ofMaxSize(20).map(b -> (Object) b),
            Arbitraries.strings().ofMaxLength(5).list().ofMaxSize(4).map(l -> (Object) new ArrayList<>(l)));
    }

    record FrameInput(int[] dests, List<Map<Long, Long>> messageIds, List<Object> values) {
    }
}
