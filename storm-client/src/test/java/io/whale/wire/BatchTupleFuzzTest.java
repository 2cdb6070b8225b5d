package io.whale.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.whale.woc.WocTestTopology;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.apache.storm.serialization.KryoValuesSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Thousands of random mutations of valid frames: the decoder answers each with a frame or with
 * MalformedFrameException, never anything else, and never allocates much more than the frame's size.
 */
class BatchTupleFuzzTest {
    private static final int MUTATIONS_PER_FRAME = 3_000;
    private static final long ALLOCATION_SLACK_BYTES = 64 * 1024;
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final Random random = new Random(20261122L);
    private final List<byte[]> validFrames = validFrames();

    /**
     * The first exception of each kind and the first run of each string concatenation site load classes;
     * that is the JVM warming up, not the decoder allocating, so it happens before anything is measured.
     */
    @BeforeEach
    void warmUp() {
        for (byte[] valid : validFrames) {
            for (int i = 0; i < 500; i++) {
                byte[] mutated = mutate(valid);
                try {
                    BatchTupleCodec.decode(mutated);
                } catch (MalformedFrameException expected) {
                    // measured in the tests
                }
                if (mutated.length >= BatchTupleCodec.MIN_FRAME_BYTES) {
                    reseal(mutated);
                    try {
                        BatchTupleCodec.decode(mutated);
                    } catch (MalformedFrameException expected) {
                        // measured in the tests
                    }
                }
            }
        }
    }

    @Test
    void garbledFramesFailTheirChecksum() {
        for (byte[] valid : validFrames) {
            for (int i = 0; i < MUTATIONS_PER_FRAME; i++) {
                byte[] mutated = mutate(valid);
                if (Arrays.equals(mutated, valid)) {
                    continue;
                }
                assertThrows(MalformedFrameException.class, () -> decodeWithinAllocationBound(mutated),
                    () -> "a mutated frame was accepted: " + Arrays.toString(mutated));
            }
        }
    }

    @Test
    void resealedHeaderMutationsNeverEscapeTheDecoder() {
        int rejected = 0;
        for (byte[] valid : validFrames) {
            int headerEnd = BatchTupleCodec.decode(valid).valuesOffset();
            for (int i = 0; i < MUTATIONS_PER_FRAME; i++) {
                byte[] mutated = valid.clone();
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    int at = random.nextInt(headerEnd);
                    mutated[at] = random.nextBoolean() ? (byte) random.nextInt() : (byte) (mutated[at] ^ (1 << random.nextInt(8)));
                }
                reseal(mutated);
                try {
                    decodeWithinAllocationBound(mutated);
                } catch (MalformedFrameException e) {
                    rejected++;
                }
            }
        }
        assertTrue(rejected > MUTATIONS_PER_FRAME, "header mutations must mostly be caught, only " + rejected + " were");
    }

    @Test
    void truncationsAtEveryLengthAreRejected() {
        for (byte[] valid : validFrames) {
            for (int length = 0; length < valid.length; length++) {
                byte[] truncated = Arrays.copyOf(valid, length);
                assertThrows(MalformedFrameException.class, () -> BatchTupleCodec.decode(truncated));
            }
        }
    }

    @Test
    void anUntouchedFrameStillDecodes() {
        for (byte[] valid : validFrames) {
            assertArrayEquals(valid, decodeWithinAllocationBound(valid).frame());
        }
    }

    private BatchTuple decodeWithinAllocationBound(byte[] frame) {
        long thread = Thread.currentThread().getId();
        long before = THREADS.getThreadAllocatedBytes(thread);
        try {
            return BatchTupleCodec.decode(frame);
        } catch (MalformedFrameException e) {
            throw e;
        } catch (Throwable t) {
            fail("decoder threw " + t + " instead of MalformedFrameException for " + Arrays.toString(frame), t);
            throw new AssertionError(t);
        } finally {
            long allocated = THREADS.getThreadAllocatedBytes(thread) - before;
            assertTrue(allocated <= ALLOCATION_SLACK_BYTES + 16L * frame.length,
                () -> "decoding " + frame.length + " bytes allocated " + allocated + " bytes");
        }
    }

    private byte[] mutate(byte[] valid) {
        byte[] m = valid.clone();
        switch (random.nextInt(6)) {
            case 0 -> m[random.nextInt(m.length)] ^= (byte) (1 << random.nextInt(8));
            case 1 -> m[random.nextInt(m.length)] = (byte) random.nextInt();
            case 2 -> m = Arrays.copyOf(m, random.nextInt(m.length));
            case 3 -> {
                m = Arrays.copyOf(m, m.length + 1 + random.nextInt(16));
                for (int i = valid.length; i < m.length; i++) {
                    m[i] = (byte) random.nextInt();
                }
            }
            case 4 -> {
                int at = random.nextInt(m.length);
                byte[] shorter = new byte[m.length - 1];
                System.arraycopy(m, 0, shorter, 0, at);
                System.arraycopy(m, at + 1, shorter, at, m.length - at - 1);
                m = shorter;
            }
            default -> {
                for (int i = 0; i < 8; i++) {
                    m[random.nextInt(m.length)] = (byte) random.nextInt();
                }
            }
        }
        return m;
    }

    /** Recomputes the CRC32C trailer, so that a mutation reaches the header checks. */
    static void reseal(byte[] frame) {
        CRC32C crc = new CRC32C();
        crc.update(frame, 0, frame.length - 4);
        ByteBuffer.wrap(frame).putInt(frame.length - 4, (int) crc.getValue());
    }

    private static List<byte[]> validFrames() {
        KryoValuesSerializer kryo = new KryoValuesSerializer(WocTestTopology.conf());
        return List.of(
            BatchTupleCodec.encode(1, "default", new int[] {2, 3, 4}, null, kryo.serialize(List.of("order-17", 42L, 3.5))),
            BatchTupleCodec.encode(7, "matches", new int[] {10, 11}, EdgeSeeds.of(new long[] {2L, 6L}, new long[][] {{1L}, {5L, 7L}}),
                                   kryo.serialize(List.of(new byte[] {1, 2, 3}, "ü"))),
            BatchTupleCodec.encode(3, "s", new int[] {5, 6, 7, 8, 9, 10, 11, 12}, null, kryo.serialize(List.of(1))));
    }
}
