package io.whale.rdma.channel;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * Deterministic test traffic: message i carries its index and bytes derived from it, with a length drawn from a
 * seeded generator, so a receiver in another process can check every byte and the order without a copy.
 */
public final class TestMessages {
    private TestMessages() {
    }

    public static int length(long seed, long index, int maxLength) {
        return 8 + new SplittableRandom(seed * 31 + index).nextInt(Math.max(1, maxLength - 8) + 1);
    }

    public static ByteBuffer message(long seed, long index, int maxLength) {
        int length = length(seed, index, maxLength);
        ByteBuffer buffer = ByteBuffer.allocate(length);
        buffer.putLong(index);
        for (int i = 8; i < length; i++) {
            buffer.put((byte) (index * 131 + i));
        }
        return buffer.flip();
    }

    /** The index of a received message, or throws when any of its bytes is wrong. */
    public static long check(long seed, ByteBuffer received, int maxLength) {
        long index = received.getLong(received.position());
        int expectedLength = length(seed, index, maxLength);
        if (received.remaining() != expectedLength) {
            throw new AssertionError("message " + index + " has " + received.remaining() + " bytes, expected "
                    + expectedLength);
        }
        for (int i = 8; i < expectedLength; i++) {
            if (received.get(received.position() + i) != (byte) (index * 131 + i)) {
                throw new AssertionError("message " + index + " differs at byte " + i);
            }
        }
        return index;
    }
}
