package io.whale.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Random mutations of valid relay frames: a garbled frame fails its checksum, and a mutated frame resealed with a
 * valid checksum (a forged one) is answered with a frame or a {@link MalformedFrameException}, nothing else;
 * a frame it answers with is forwarded without error too.
 */
class RelayFrameFuzzTest {
    private static final int MUTATIONS_PER_FRAME = 3_000;
    private final Random random = new Random(20261123L);

    private static final List<byte[]> FRAMES = List.of(
        RelayFrameCodec.encode(7, "orders", 99L, 1, 5L, RelayRoute.leaf(3), null, new byte[] {9}),
        RelayFrameCodec.encode(7, "orders", 99L, 1, 5L, new RelayRoute(new int[] {1, 2},
            List.of(new RelayRoute(new int[] {300}, List.of(RelayRoute.leaf(4000, 4001))), RelayRoute.leaf(5))),
            EdgeSeeds.of(new long[] {11L, 12L}, new long[][] {{1L}, {3L, 5L}}), new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));

    @Test
    void shouldFailTheChecksumOfEveryGarbledFrame() {
        for (byte[] valid : FRAMES) {
            for (int i = 0; i < MUTATIONS_PER_FRAME; i++) {
                byte[] mutated = valid.clone();
                mutated[random.nextInt(mutated.length)] ^= (byte) (1 + random.nextInt(255));
                assertThrows(MalformedFrameException.class, () -> RelayFrameCodec.decode(mutated));
            }
        }
    }

    @Test
    void shouldAnswerEveryForgedFrameWithAFrameOrMalformed() {
        int rejected = 0;
        for (byte[] valid : FRAMES) {
            for (int i = 0; i < MUTATIONS_PER_FRAME; i++) {
                byte[] mutated = mutate(valid);
                reseal(mutated);
                try {
                    RelayFrame frame = RelayFrameCodec.decode(mutated);
                    for (int child = 0; child < frame.children().size(); child++) {
                        RelayFrameCodec.decode(RelayFrameCodec.forward(frame, child));
                    }
                } catch (MalformedFrameException expected) {
                    rejected++;
                }
            }
        }
        assertEquals(true, rejected > MUTATIONS_PER_FRAME / 2, "most forged frames are refused: " + rejected);
    }

    private byte[] mutate(byte[] valid) {
        byte[] mutated;
        switch (random.nextInt(3)) {
            case 0 -> mutated = Arrays.copyOf(valid, Math.max(RelayFrameCodec.MIN_FRAME_BYTES, valid.length - 1 - random.nextInt(8)));
            case 1 -> mutated = Arrays.copyOf(valid, valid.length + 1 + random.nextInt(8));
            default -> mutated = valid.clone();
        }
        for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
            mutated[random.nextInt(mutated.length - 4)] = (byte) random.nextInt(256);
        }
        return mutated;
    }

    private static void reseal(byte[] frame) {
        CRC32C crc = new CRC32C();
        crc.update(frame, 0, frame.length - 4);
        ByteBuffer.wrap(frame).putInt(frame.length - 4, (int) crc.getValue());
    }
}
