package io.whale.wire;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes, decodes and forwards relay frames (format: storm-client/RELAY.md). The root encodes one frame per
 * child of the source, each carrying that child's route; a member decodes its own tasks and finds its children's
 * routes, and forwards each child a frame made of the same header (with the emit's message ids as seeds), that
 * child's route bytes and the same value bytes: the values are serialized once, at the root, and never again.
 * Decoding is as strict as {@link io.whale.wire.BatchTupleCodec}'s: the CRC32C trailer must match, every count is checked against the bytes
 * left before anything is allocated, routes nest without recursion, and any violation is a
 * {@link MalformedFrameException}.
 */
public final class RelayFrameCodec {
    public static final byte MAGIC = (byte) 0xB8;
    /** Version 2 carries an anchored emit's message ids once, in the header, as seeds ({@link EdgeSeeds}). */
    public static final byte VERSION = 2;
    static final int FLAG_EDGE_SEEDS = 1;
    /** Magic, version, flags, the shortest source task, incarnation, tree id and seq, an empty stream id. */
    static final int MIN_HEADER_BYTES = 1 + 1 + 1 + 1 + 1 + 4 + 1 + 2;
    /** A member in a route: task count, one task, child count. */
    private static final int MIN_SECTION_BYTES = 1 + 1 + 1;
    /** The shortest header, one member with one task and no children, one value byte, CRC. */
    static final int MIN_FRAME_BYTES = MIN_HEADER_BYTES + MIN_SECTION_BYTES + 1 + 4;
    private static final int MAX_U16 = 0xFFFF;
    private static final int CRC_BYTES = 4;
    private static final String KIND = "Relay frame";

    private RelayFrameCodec() {
    }

    /**
     * The frame for the member at the top of {@code route}.
     *
     * @param seeds the message ids of the copies, null when the emit is unanchored
     * @param values the tuple values serialized with the topology's Kryo
     */
    public static byte[] encode(int sourceTask, String stream, long incarnation, int treeId, long seq, RelayRoute route,
                                EdgeSeeds seeds, byte[] values) {
        byte[] streamBytes = stream.getBytes(StandardCharsets.UTF_8);
        if (streamBytes.length > MAX_U16) {
            throw new IllegalArgumentException("stream id longer than " + MAX_U16 + " bytes");
        }
        if (values.length == 0) {
            throw new IllegalArgumentException("no serialized values");
        }
        FrameFields.requireDistinct(route.allTasks(), IllegalArgumentException::new, "relay route");
        long size = 3 + FrameFields.varIntBytes(sourceTask) + FrameFields.varLongBytes(incarnation) + 4
            + FrameFields.varLongBytes(seq) + 2L + streamBytes.length + (seeds == null ? 0 : seeds.bytes()) + routeBytes(route)
            + values.length + CRC_BYTES;
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("relay frame too large: " + size + " bytes");
        }
        ByteBuffer buf = ByteBuffer.allocate((int) size);
        buf.put(MAGIC).put(VERSION).put((byte) (seeds == null ? 0 : FLAG_EDGE_SEEDS));
        FrameFields.putVarInt(buf, sourceTask);
        FrameFields.putVarLong(buf, incarnation);
        buf.putInt(treeId);
        FrameFields.putVarLong(buf, seq);
        buf.putShort((short) streamBytes.length).put(streamBytes);
        if (seeds != null) {
            seeds.put(buf);
        }
        putRoute(buf, route);
        buf.put(values);
        buf.putInt(FrameFields.crc(buf.array(), buf.position()));
        return buf.array();
    }

    /** The frame {@code frame}'s member sends its child {@code child}: same header and values, the child's route. */
    public static byte[] forward(RelayFrame frame, int child) {
        return forward(frame, frame.children().get(child));
    }

    /** The frame for the member at the top of {@code route}, a route in {@code frame}: a child's or one below it. */
    public static byte[] forward(RelayFrame frame, RelayFrame.Child route) {
        int routeLength = route.end() - route.start();
        ByteBuffer buf = ByteBuffer.allocate(frame.routeOffset() + routeLength + frame.valuesLength() + CRC_BYTES);
        buf.put(frame.frame(), 0, frame.routeOffset());
        buf.put(frame.frame(), route.start(), routeLength);
        buf.put(frame.frame(), frame.valuesOffset(), frame.valuesLength());
        buf.putInt(FrameFields.crc(buf.array(), buf.position()));
        return buf.array();
    }

    /**
     * The frame for the member at the top of {@code route} alone: its own tasks, no member below it (what its parent
     * sends it while it sends its children their frames itself).
     */
    public static byte[] forwardAlone(RelayFrame frame, RelayFrame.Child route) {
        ByteBuffer in = ByteBuffer.wrap(frame.frame(), route.start(), route.end() - route.start());
        int tasks = readCount(in, "task count");
        for (int i = 0; i < tasks; i++) {
            FrameFields.readVarInt(in, KIND);
        }
        int tasksLength = in.position() - route.start();
        ByteBuffer buf = ByteBuffer.allocate(frame.routeOffset() + tasksLength + FrameFields.varIntBytes(0)
            + frame.valuesLength() + CRC_BYTES);
        buf.put(frame.frame(), 0, frame.routeOffset());
        buf.put(frame.frame(), route.start(), tasksLength);
        FrameFields.putVarInt(buf, 0); // its child count
        buf.put(frame.frame(), frame.valuesOffset(), frame.valuesLength());
        buf.putInt(FrameFields.crc(buf.array(), buf.position()));
        return buf.array();
    }

    /** {@code frame} for its own member alone: its tasks, no member below it ({@link #forwardAlone} of its whole route). */
    public static byte[] alone(RelayFrame frame) {
        return forwardAlone(frame, new RelayFrame.Child(frame.routeOffset(), frame.valuesOffset(), frame.tasks()[0],
            frame.subtreeTasks()));
    }

    /**
     * The routes of the children of {@code route}'s member, in send order: what its parent sends instead when that
     * member cannot be reached. {@code frame} was decoded, so its routes are known to be well formed.
     */
    public static List<RelayFrame.Child> childrenOf(RelayFrame frame, RelayFrame.Child route) {
        ByteBuffer buf = ByteBuffer.wrap(frame.frame(), route.start(), route.end() - route.start());
        int tasks = readCount(buf, "task count");
        for (int i = 0; i < tasks; i++) {
            FrameFields.readVarInt(buf, KIND);
        }
        int childCount = readCount(buf, "child count");
        List<RelayFrame.Child> children = new ArrayList<>(childCount);
        for (int i = 0; i < childCount; i++) {
            children.add(skipRoute(buf, null));
        }
        return children;
    }

    /** The tasks of the member at the top of {@code route}, a route in {@code frame}, and of every member below it. */
    public static int[] subtreeTasksOf(RelayFrame frame, RelayFrame.Child route) {
        TaskList tasks = new TaskList(new int[0]);
        skipRoute(ByteBuffer.wrap(frame.frame(), route.start(), route.end() - route.start()), tasks);
        return tasks.toArray();
    }

    public static RelayFrame decode(byte[] frame) {
        if (frame == null || frame.length < MIN_FRAME_BYTES) {
            throw new MalformedFrameException(KIND + " truncated: " + (frame == null ? 0 : frame.length)
                                                   + " bytes, at least " + MIN_FRAME_BYTES + " expected");
        }
        if (frame[0] != MAGIC) {
            throw new MalformedFrameException(String.format(KIND + " expected, magic 0x%02x", frame[0] & 0xFF));
        }
        if (frame[1] != VERSION) {
            throw new MalformedFrameException("unsupported " + KIND + " version " + (frame[1] & 0xFF)
                                                   + " (this worker reads " + VERSION + ")");
        }
        int bodyLength = frame.length - CRC_BYTES;
        if (FrameFields.crc(frame, bodyLength) != ByteBuffer.wrap(frame, bodyLength, CRC_BYTES).getInt()) {
            throw new MalformedFrameException(KIND + " of " + frame.length + " bytes fails its CRC32C check");
        }
        try {
            return parseBody(ByteBuffer.wrap(frame, 0, bodyLength), frame);
        } catch (BufferUnderflowException e) {
            throw new MalformedFrameException(KIND + " truncated inside its header", e);
        }
    }

    private static RelayFrame parseBody(ByteBuffer buf, byte[] frame) {
        buf.position(2);
        int flags = buf.get() & 0xFF;
        if ((flags & ~FLAG_EDGE_SEEDS) != 0) {
            throw new MalformedFrameException("unknown " + KIND + " flags 0x" + Integer.toHexString(flags));
        }
        int sourceTask = FrameFields.readVarInt(buf, KIND, "source task");
        long incarnation = FrameFields.readVarLong(buf, KIND, "incarnation");
        int treeId = buf.getInt();
        long seq = FrameFields.readVarLong(buf, KIND, "seq");
        String stream = FrameFields.readStream(buf, KIND);
        EdgeSeeds seeds = (flags & FLAG_EDGE_SEEDS) != 0 ? EdgeSeeds.read(buf, KIND) : null;
        int routeOffset = buf.position();
        int[] tasks = readTasks(buf);
        int childCount = readCount(buf, "child count");
        FrameFields.requireRemaining(buf, childCount * (long) MIN_SECTION_BYTES, KIND, "child routes");
        List<RelayFrame.Child> children = new ArrayList<>(childCount);
        TaskList routeTasks = new TaskList(tasks);
        for (int i = 0; i < childCount; i++) {
            children.add(skipRoute(buf, routeTasks));
        }
        int valuesLength = buf.remaining();
        if (valuesLength == 0) {
            throw new MalformedFrameException(KIND + " has no values after its route");
        }
        FrameFields.requireDistinct(routeTasks.toArray(), MalformedFrameException::new, KIND + " route");
        return new RelayFrame(sourceTask, stream, incarnation, treeId, seq, tasks, seeds, List.copyOf(children),
                              routeTasks.tail(tasks.length), frame, routeOffset, buf.position(), valuesLength);
    }

    private static int[] readTasks(ByteBuffer buf) {
        int count = readCount(buf, "task count");
        if (count == 0) {
            throw new MalformedFrameException(KIND + " route names a member with no destination task");
        }
        FrameFields.requireRemaining(buf, count, KIND, "destination tasks");
        return FrameFields.readTaskList(buf, count, KIND);
    }

    /**
     * Walks one child's route without keeping it, but for its tasks when {@code tasks} is given. Routes are written in
     * preorder, so the route ends when as many members have been read as it announced (one, plus every member's child
     * count): no recursion, no stack, however deep the tree.
     */
    private static RelayFrame.Child skipRoute(ByteBuffer buf, TaskList taskList) {
        int start = buf.position();
        int firstTask = 0;
        int tasks = 0;
        long unread = 1;
        while (unread > 0) {
            unread--;
            int count = readCount(buf, "task count");
            if (count == 0) {
                throw new MalformedFrameException(KIND + " route names a member with no destination task");
            }
            FrameFields.requireRemaining(buf, count, KIND, "destination tasks");
            int first = FrameFields.unZigZag(FrameFields.readVarInt(buf, KIND));
            int task = first;
            if (taskList != null) {
                taskList.add(task);
            }
            for (int i = 1; i < count; i++) {
                task += FrameFields.unZigZag(FrameFields.readVarInt(buf, KIND));
                if (taskList != null) {
                    taskList.add(task);
                }
            }
            if (tasks == 0) {
                firstTask = first;
            }
            tasks += count;
            unread += readCount(buf, "child count");
            FrameFields.requireRemaining(buf, unread * MIN_SECTION_BYTES, KIND, "child routes");
        }
        return new RelayFrame.Child(start, buf.position(), firstTask, tasks);
    }

    private static long routeBytes(RelayRoute route) {
        if (route.tasks().length > MAX_U16 || route.children().size() > MAX_U16) {
            throw new IllegalArgumentException("a route member has 1.." + MAX_U16 + " tasks and at most " + MAX_U16
                                               + " children");
        }
        long bytes = FrameFields.varIntBytes(route.tasks().length) + FrameFields.taskListBytes(route.tasks())
            + FrameFields.varIntBytes(route.children().size());
        for (RelayRoute child : route.children()) {
            bytes += routeBytes(child);
        }
        return bytes;
    }

    private static void putRoute(ByteBuffer buf, RelayRoute route) {
        FrameFields.putVarInt(buf, route.tasks().length);
        FrameFields.putTaskList(buf, route.tasks());
        FrameFields.putVarInt(buf, route.children().size());
        for (RelayRoute child : route.children()) {
            putRoute(buf, child);
        }
    }

    /** A task or child count: a varint of at most {@value #MAX_U16}. */
    private static int readCount(ByteBuffer buf, String what) {
        int count = FrameFields.readVarInt(buf, KIND, what);
        if (count < 0 || count > MAX_U16) {
            throw new MalformedFrameException(KIND + " " + what + " " + count + " out of range");
        }
        return count;
    }

    /** The tasks of a route as they are read, after {@code first}; grows as an ArrayList would, never beyond the frame's bytes. */
    private static final class TaskList {
        private int[] tasks;
        private int size;

        TaskList(int[] first) {
            tasks = Arrays.copyOf(first, Math.max(16, 2 * first.length));
            size = first.length;
        }

        void add(int task) {
            if (size == tasks.length) {
                tasks = Arrays.copyOf(tasks, 2 * size);
            }
            tasks[size++] = task;
        }

        int[] toArray() {
            return Arrays.copyOf(tasks, size);
        }

        /** The tasks read after the first {@code from}. */
        int[] tail(int from) {
            return Arrays.copyOfRange(tasks, from, size);
        }
    }
}
