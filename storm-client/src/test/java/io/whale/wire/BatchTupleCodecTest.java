package io.whale.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.esotericsoftware.kryo.io.Input;
import io.whale.woc.WocTestTopology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
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

        BatchTuple decoded = BatchTupleCodec.decode(BatchTupleCodec.encode(sourceTask, stream, in.dests(), in.seeds(), values));

        assertEquals(sourceTask, decoded.sourceTask());
        assertEquals(stream, decoded.stream());
        assertArrayEquals(in.dests(), decoded.destTasks());
        assertEquals(in.seeds(), decoded.seeds());
        List<Object> back = deserializer.deserializeFrom(new Input(decoded.frame(), decoded.valuesOffset(), decoded.valuesLength()));
        assertTrue(Arrays.deepEquals(in.values().toArray(), back.toArray()), () -> in.values() + " came back as " + back);
    }

    @Example
    void unanchoredFrameCarriesNoMessageIds() {
        byte[] frame = BatchTupleCodec.encode(1, "default", new int[] {2, 3}, null, serializer.serialize(List.of("x")));
        BatchTuple decoded = BatchTupleCodec.decode(frame);
        assertNull(decoded.seeds());
    }

    @Example
    void anAnchoredFrameCarriesItsSeedsOnceWhateverItsTaskCount() {
        byte[] values = serializer.serialize(List.of("x"));
        EdgeSeeds seeds = EdgeSeeds.of(new long[] {11L}, new long[][] {{7L}});
        int[] many = new int[64];
        for (int i = 0; i < many.length; i++) {
            many[i] = 100 + i;
        }
        int seedBytes = 1 + 8 + 1 + 8;
        assertEquals(seedBytes, BatchTupleCodec.encode(1, "s", new int[] {2, 3}, seeds, values).length
                                - BatchTupleCodec.encode(1, "s", new int[] {2, 3}, null, values).length);
        assertEquals(seedBytes, BatchTupleCodec.encode(1, "s", many, seeds, values).length
                                - BatchTupleCodec.encode(1, "s", many, null, values).length);
    }

    @Example
    void lengthsLargerThanTheFrameAreRejectedBeforeAllocating() {
        byte[] values = serializer.serialize(List.of("x"));
        EdgeSeeds seeds = EdgeSeeds.of(new long[] {11L}, new long[][] {{7L}});
        // header, source task, stream length, "s", destination count, tasks 2 and 3 as one-byte varint deltas
        int anchorCountOffset = 3 + 4 + 2 + 1 + 2 + 2;
        byte[] anchors = BatchTupleCodec.encode(1, "s", new int[] {2, 3}, seeds, values);
        anchors[anchorCountOffset] = 0x7F;
        BatchTupleFuzzTest.reseal(anchors);
        MalformedFrameException e = assertThrows(MalformedFrameException.class, () -> BatchTupleCodec.decode(anchors));
        assertTrue(e.getMessage().contains("edge seeds need 2159 bytes"), e.getMessage());

        byte[] roots = BatchTupleCodec.encode(1, "s", new int[] {2, 3}, seeds, values);
        roots[anchorCountOffset + 1 + 8] = 0x7F;
        BatchTupleFuzzTest.reseal(roots);
        e = assertThrows(MalformedFrameException.class, () -> BatchTupleCodec.decode(roots));
        assertTrue(e.getMessage().contains("root ids need 1016 bytes"), e.getMessage());
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
        MalformedFrameException e = assertThrows(MalformedFrameException.class, () -> BatchTupleCodec.decode(longer));
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
        MalformedFrameException e = assertThrows(MalformedFrameException.class, () -> BatchTupleCodec.decode(frame));
        assertTrue(e.getMessage().contains("names destination task 2 twice"), e.getMessage());
    }

    @Example
    void framesFromAnotherVersionAreRefusedByName() {
        byte[] frame = BatchTupleCodec.encode(1, "s", new int[] {2}, null, serializer.serialize(List.of("x")));
        frame[1] = 9;
        MalformedFrameException e = assertThrows(MalformedFrameException.class, () -> BatchTupleCodec.decode(frame));
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
        return Combinators.combine(dests, anchored, values, EdgeSeedsTest.seeds())
            .as((d, a, v, seeds) -> new FrameInput(d, a ? seeds : null, v));
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

    record FrameInput(int[] dests, EdgeSeeds seeds, List<Object> values) {
    }
}
