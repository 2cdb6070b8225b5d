package io.whale.wire;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Encodes and decodes BatchTuple frames (format: storm-client/WOC-WIRE-FORMAT.md). Decoding is strict:
 * every length is checked against the bytes that remain before anything is allocated, the CRC32C trailer
 * must match (so garbled Kryo payloads never reach Kryo) and the frame must end exactly after it. Any
 * violation raises {@link MalformedFrameException}.
 */
public final class BatchTupleCodec {
    public static final byte MAGIC = (byte) 0xB7;
    /**
     * Version 3 carries an anchored emit's message ids as one seed per anchor ({@link EdgeSeeds}; version 2 carried
     * every task's ids), version 2 the destination tasks as varint deltas (version 1 used 4 bytes per task).
     */
    public static final byte VERSION = 3;
    static final int FLAG_EDGE_SEEDS = 1;
    static final int MAX_U16 = 0xFFFF;
    /** magic, version, flags, source task, stream length, destination count, one destination, values length, CRC. */
    static final int MIN_FRAME_BYTES = 1 + 1 + 1 + 4 + 2 + 2 + 1 + 4 + 4;
    private static final String KIND = "BatchTuple";
    private static final int CRC_BYTES = 4;

    private BatchTupleCodec() {
    }

    /**
     * Builds one frame.
     *
     * @param seeds the message ids of the copies, null when the emit is unanchored
     * @param values the tuple values serialized with the topology's Kryo (KryoValuesSerializer)
     */
    public static byte[] encode(int sourceTask, String stream, int[] destTasks, EdgeSeeds seeds, byte[] values) {
        byte[] streamBytes = stream.getBytes(StandardCharsets.UTF_8);
        if (streamBytes.length > MAX_U16) {
            throw new IllegalArgumentException("stream id longer than " + MAX_U16 + " bytes");
        }
        if (destTasks.length == 0 || destTasks.length > MAX_U16) {
            throw new IllegalArgumentException("destination count must be 1.." + MAX_U16 + ", was " + destTasks.length);
        }
        FrameFields.requireDistinct(destTasks, IllegalArgumentException::new, "BatchTuple frame");
        long size = MIN_FRAME_BYTES - 1 + streamBytes.length + FrameFields.taskListBytes(destTasks) + values.length;
        if (seeds != null) {
            size += seeds.bytes();
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("BatchTuple frame too large: " + size + " bytes");
        }
        ByteBuffer buf = ByteBuffer.allocate((int) size);
        buf.put(MAGIC).put(VERSION).put((byte) (seeds == null ? 0 : FLAG_EDGE_SEEDS));
        buf.putInt(sourceTask);
        buf.putShort((short) streamBytes.length).put(streamBytes);
        buf.putShort((short) destTasks.length);
        FrameFields.putTaskList(buf, destTasks);
        if (seeds != null) {
            seeds.put(buf);
        }
        buf.putInt(values.length).put(values);
        buf.putInt(FrameFields.crc(buf.array(), buf.position()));
        return buf.array();
    }

    /**
     * The destination count of a frame read from its header alone, without the checks of {@link #decode}; 1 for
     * anything too short or not of this version, so a caller weighing frames by it never weighs one as nothing.
     */
    public static int destinationCount(byte[] frame) {
        int streamLengthAt = 7;
        if (frame == null || frame.length < MIN_FRAME_BYTES || frame[0] != MAGIC || frame[1] != VERSION) {
            return 1;
        }
        int countAt = streamLengthAt + 2 + ((frame[streamLengthAt] & 0xFF) << 8 | frame[streamLengthAt + 1] & 0xFF);
        if (countAt + 2 > frame.length) {
            return 1;
        }
        return Math.max(1, (frame[countAt] & 0xFF) << 8 | frame[countAt + 1] & 0xFF);
    }

    /** Decodes and validates a frame; the values stay serialized inside {@code frame}. */
    public static BatchTuple decode(byte[] frame) {
        if (frame == null) {
            throw new MalformedFrameException("BatchTuple frame has no payload");
        }
        if (frame.length < MIN_FRAME_BYTES) {
            throw new MalformedFrameException("BatchTuple frame truncated: " + frame.length + " bytes, at least "
                                                   + MIN_FRAME_BYTES + " expected");
        }
        if (frame[0] != MAGIC) {
            throw new MalformedFrameException(String.format("not a BatchTuple frame: magic 0x%02x", frame[0] & 0xFF));
        }
        if (frame[1] != VERSION) {
            throw new MalformedFrameException("unsupported BatchTuple version " + (frame[1] & 0xFF) + " (this worker reads "
                                                   + VERSION + ")");
        }
        int bodyLength = frame.length - CRC_BYTES;
        int expectedCrc = ByteBuffer.wrap(frame, bodyLength, CRC_BYTES).getInt();
        if (FrameFields.crc(frame, bodyLength) != expectedCrc) {
            throw new MalformedFrameException("BatchTuple frame of " + frame.length + " bytes fails its CRC32C check");
        }
        try {
            return parseBody(ByteBuffer.wrap(frame, 0, bodyLength), frame);
        } catch (BufferUnderflowException e) {
            throw new MalformedFrameException("BatchTuple frame truncated inside its header", e);
        }
    }

    private static BatchTuple parseBody(ByteBuffer buf, byte[] frame) {
        buf.position(2);
        int flags = buf.get() & 0xFF;
        if ((flags & ~FLAG_EDGE_SEEDS) != 0) {
            throw new MalformedFrameException("unknown BatchTuple flags 0x" + Integer.toHexString(flags));
        }
        int sourceTask = buf.getInt();
        String stream = FrameFields.readStream(buf, KIND);
        int destCount = buf.getShort() & 0xFFFF;
        if (destCount == 0) {
            throw new MalformedFrameException("BatchTuple frame has no destination task");
        }
        requireRemaining(buf, destCount, "destination tasks");
        int[] destTasks = FrameFields.readTaskList(buf, destCount, KIND);
        FrameFields.requireDistinct(destTasks, MalformedFrameException::new, "BatchTuple frame");
        EdgeSeeds seeds = (flags & FLAG_EDGE_SEEDS) != 0 ? EdgeSeeds.read(buf, KIND) : null;
        int valuesLength = buf.getInt();
        if (valuesLength <= 0 || valuesLength != buf.remaining()) {
            throw new MalformedFrameException("BatchTuple values length " + valuesLength + " does not match the "
                                                   + buf.remaining() + " bytes left in the frame");
        }
        return new BatchTuple(sourceTask, stream, destTasks, seeds, frame, buf.position(), valuesLength);
    }

    private static void requireRemaining(ByteBuffer buf, long needed, String what) {
        FrameFields.requireRemaining(buf, needed, KIND, what);
    }
}
