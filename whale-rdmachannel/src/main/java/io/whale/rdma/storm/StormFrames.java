package io.whale.rdma.storm;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.netty.BackPressureStatus;

/**
 * What Storm sends over an RDMA channel. Every channel message starts with a one-byte kind.
 * <pre>
 *   sender -> receiver (data, one-sided READs)
 *     TASK          1 | task int | payload           one TaskMessage (WOC frames are TaskMessages to task -7000)
 *   receiver -> sender (notices, two-sided)
 *     BACKPRESSURE  2 | n int | n task ints | m int | m task ints      tasks now under / out of backpressure
 *     LOAD          3 | n int | n x (task int, load double)           receive-queue load of the worker's tasks
 *     CREDIT        4 | task int | payload                           a WOC frame credit (task -7010) or relay credit (-7011)
 * </pre>
 * A CREDIT goes only to the sender whose channel carried what it credits; the others go to every sender.
 */
final class StormFrames {
    static final byte TASK = 1;
    static final byte BACKPRESSURE = 2;
    static final byte LOAD = 3;
    static final byte CREDIT = 4;
    static final int TASK_HEADER_BYTES = 1 + Integer.BYTES;

    private StormFrames() {
    }

    static ByteBuffer taskHeader(int task) {
        return ByteBuffer.allocate(TASK_HEADER_BYTES).put(TASK).putInt(task).flip();
    }

    /** Decodes a TASK message; the payload is copied out (the channel's memory is reused after release). */
    static TaskMessage taskMessage(ByteBuffer message) {
        byte kind = message.get();
        if (kind != TASK) {
            throw new IllegalArgumentException("expected a task message, got kind " + kind);
        }
        int task = message.getInt();
        byte[] payload = new byte[message.remaining()];
        message.get(payload);
        return new TaskMessage(task, payload);
    }

    /** A CREDIT notice carrying {@code credit}, a {@link io.whale.wire.FrameCredit} or {@link io.whale.wire.RelayCredit} message. */
    static ByteBuffer credit(TaskMessage credit) {
        return ByteBuffer.allocate(1 + Integer.BYTES + credit.message().length).put(CREDIT).putInt(credit.task())
                .put(credit.message()).flip();
    }

    /** Reads a CREDIT notice after its kind byte. */
    static TaskMessage readCredit(ByteBuffer notice) {
        int task = notice.getInt();
        byte[] payload = new byte[notice.remaining()];
        notice.get(payload);
        return new TaskMessage(task, payload);
    }

    static ByteBuffer backPressure(BackPressureStatus status) {
        Collection<Integer> on = status.bpTasks == null ? List.of() : status.bpTasks;
        Collection<Integer> off = status.nonBpTasks == null ? List.of() : status.nonBpTasks;
        ByteBuffer out = ByteBuffer.allocate(1 + Integer.BYTES * (2 + on.size() + off.size())).put(BACKPRESSURE);
        putTasks(out, on);
        putTasks(out, off);
        return out.flip();
    }

    static ByteBuffer load(Map<Integer, Double> taskToLoad) {
        ByteBuffer out = ByteBuffer.allocate(1 + Integer.BYTES + taskToLoad.size() * (Integer.BYTES + Double.BYTES))
                .put(LOAD).putInt(taskToLoad.size());
        taskToLoad.forEach((task, load) -> out.putInt(task).putDouble(load));
        return out.flip();
    }

    /** A decoded BACKPRESSURE notice. */
    record BackPressureUpdate(List<Integer> underPressure, List<Integer> relieved) {
    }

    /** Reads a BACKPRESSURE notice after its kind byte. */
    static BackPressureUpdate readBackPressure(ByteBuffer notice) {
        return new BackPressureUpdate(readTasks(notice), readTasks(notice));
    }

    /** Reads a LOAD notice after its kind byte. */
    static Map<Integer, Double> readLoad(ByteBuffer notice) {
        int count = count(notice, Integer.BYTES + Double.BYTES);
        Map<Integer, Double> loads = new HashMap<>(count * 2);
        for (int i = 0; i < count; i++) {
            loads.put(notice.getInt(), notice.getDouble());
        }
        return loads;
    }

    private static void putTasks(ByteBuffer out, Collection<Integer> tasks) {
        out.putInt(tasks.size());
        tasks.forEach(out::putInt);
    }

    private static List<Integer> readTasks(ByteBuffer in) {
        int count = count(in, Integer.BYTES);
        List<Integer> tasks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            tasks.add(in.getInt());
        }
        return tasks;
    }

    /** A count bounded by the bytes that remain, so a garbled notice cannot make us allocate much. */
    private static int count(ByteBuffer in, int bytesPerEntry) {
        int count = in.getInt();
        if (count < 0 || (long) count * bytesPerEntry > in.remaining()) {
            throw new IllegalArgumentException("notice announces " + count + " entries but holds "
                    + in.remaining() + " bytes");
        }
        return count;
    }
}
