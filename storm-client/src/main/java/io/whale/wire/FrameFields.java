package io.whale.wire;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;
import java.util.zip.CRC32C;

/**
 * The integer encodings and checks the WOC frame codecs share (BatchTuple frames and the relay frames built on
 * them): task ids as zigzag varint deltas, CRC32C trailers, and length checks made before anything is allocated.
 * Every violation is a {@link MalformedFrameException} whose message starts with the caller's frame kind.
 */
public final class FrameFields {
    private static final int MAX_VARINT_BYTES = 5;
    private static final int MAX_VARLONG_BYTES = 10;

    private FrameFields() {
    }

    public static int zigZag(int n) {
        return (n << 1) ^ (n >> 31);
    }

    public static int unZigZag(int n) {
        return (n >>> 1) ^ -(n & 1);
    }

    /** Bytes of {@code value} as an unsigned varint (LEB128). */
    public static int varIntBytes(int value) {
        return varLongBytes(Integer.toUnsignedLong(value));
    }

    public static void putVarInt(ByteBuffer buf, int value) {
        putVarLong(buf, Integer.toUnsignedLong(value));
    }

    /** Bytes the tasks take as zigzag varints of the difference to the previous task (the first to 0). */
    public static long taskListBytes(int[] tasks) {
        long bytes = 0;
        int previous = 0;
        for (int task : tasks) {
            bytes += varIntBytes(zigZag(task - previous));
            previous = task;
        }
        return bytes;
    }

    public static void putTaskList(ByteBuffer buf, int[] tasks) {
        int previous = 0;
        for (int task : tasks) {
            putVarInt(buf, zigZag(task - previous));
            previous = task;
        }
    }

    /**
     * Refuses a task list that names a task twice: a frame delivers one copy to each task, and a destination named twice
     * would get two (and, in a relay route, a member would be sent its frame twice). On the send and receive paths of
     * every frame: an ascending list (as a worker's tasks usually come) is checked without allocating; any other is
     * checked on a sorted copy (task lists are short).
     */
    public static void requireDistinct(int[] tasks, Function<String, ? extends RuntimeException> refusal, String what) {
        int ascending = 1;
        while (ascending < tasks.length && tasks[ascending] > tasks[ascending - 1]) {
            ascending++;
        }
        if (ascending == tasks.length) {
            return;
        }
        int[] sorted = tasks.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                throw refusal.apply(what + " names destination task " + sorted[i] + " twice");
            }
        }
    }

    /** Reads {@code count} tasks written by {@link #putTaskList}; the caller has checked count against the bytes left. */
    public static int[] readTaskList(ByteBuffer buf, int count, String kind) {
        int[] tasks = new int[count];
        int previous = 0;
        for (int i = 0; i < count; i++) {
            previous += unZigZag(readVarInt(buf, kind));
            tasks[i] = previous;
        }
        return tasks;
    }

    public static int readVarInt(ByteBuffer buf, String kind) {
        return readVarInt(buf, kind, "destination task");
    }

    public static int readVarInt(ByteBuffer buf, String kind, String what) {
        return (int) readVar(buf, kind, what, MAX_VARINT_BYTES, 0xF0, 32);
    }

    public static int varLongBytes(long value) {
        int bytes = 1;
        while ((value & ~0x7FL) != 0) {
            value >>>= 7;
            bytes++;
        }
        return bytes;
    }

    public static void putVarLong(ByteBuffer buf, long value) {
        while ((value & ~0x7FL) != 0) {
            buf.put((byte) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        buf.put((byte) value);
    }

    public static long readVarLong(ByteBuffer buf, String kind, String what) {
        return readVar(buf, kind, what, MAX_VARLONG_BYTES, 0xFE, 64);
    }

    /** An unsigned varint of at most {@code maxBytes}, whose last byte may not set a bit in {@code lastByteOverflow}. */
    private static long readVar(ByteBuffer buf, String kind, String what, int maxBytes, int lastByteOverflow, int bits) {
        long value = 0;
        for (int i = 0; i < maxBytes; i++) {
            byte b = buf.get();
            if (i == maxBytes - 1 && (b & lastByteOverflow) != 0) {
                throw new MalformedFrameException(kind + " " + what + " varint overflows " + bits + " bits");
            }
            value |= (long) (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new MalformedFrameException(kind + " " + what + " varint longer than " + maxBytes + " bytes");
    }

    public static void requireRemaining(ByteBuffer buf, long needed, String kind, String what) {
        if (needed > buf.remaining()) {
            throw new MalformedFrameException(kind + " " + what + " need " + needed + " bytes, only " + buf.remaining()
                                                   + " left");
        }
    }

    public static int crc(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }
    /** A stream id: its UTF-8 length as an unsigned short, then the bytes, which must be valid UTF-8. */
    public static String readStream(ByteBuffer buf, String kind) {
        int length = buf.getShort() & 0xFFFF;
        requireRemaining(buf, length, kind, "stream id");
        ByteBuffer slice = buf.slice(buf.position(), length);
        buf.position(buf.position() + length);
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(slice);
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new MalformedFrameException(kind + " stream id is not valid UTF-8", e);
        }
    }
}
