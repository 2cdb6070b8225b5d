package io.whale.send;

import io.whale.flow.EmitDelivery;
import io.whale.flow.FrameWindow;
import io.whale.wire.BatchTupleMessage;
import io.whale.wire.FrameMessage;
import io.whale.wire.RelayFrameMessage;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.tuple.AddressedTuple;
import org.apache.storm.tuple.Tuple;

/**
 * An encoded WOC frame that could not leave yet (its destination worker's {@link FrameWindow} was full, one of
 * its tasks was under remote backpressure, or the transfer queue was full), parked whole in the executor's
 * {@code pendingEmits} in place of its per-task copies. The executor retries its pending emits in order, so the
 * frame keeps its place; the patched {@code ExecutorTransfer} hands it back to {@link WocEmitBatcher#retryHeld}
 * rather than to the stock per-task path, which would send the copies one by one around the window.
 *
 * <p>Its place there is its {@link #placeholder}: its first copy as it is, addressed to a destination task of it (a
 * remote one), so whatever looks at a pending emit sees the tuple it is; the batcher knows the placeholder by
 * identity ({@link WocEmitBatcher#holds}).
 */
public final class HeldFrame {
    private final AddressedTuple placeholder;
    private final NodeInfo worker;
    private final int[] destTasks;
    private final byte[] frame;
    private final int epoch;
    private final int hops;
    private final EmitDelivery delivery;
    private final boolean alone;
    /** When it first found its window full, or -1: only the executor thread that holds it reads and writes it. */
    private long windowBlockedSinceNanos = -1;

    /** The {@code epoch} of a BatchTuple frame. */
    static final int NOT_RELAYED = -1;

    /**
     * @param worker the worker the frame goes to
     * @param destTasks the tasks it delivers to: the worker's, or for a relay frame its whole subtree's
     * @param epoch for a relay frame ({@link RelayFrameMessage}), the tree shape's epoch it was built for; for a
     *              BatchTuple frame {@link #NOT_RELAYED}
     * @param hops the workers its credit comes back through: a relay frame's route depth, else 1
     * @param delivery its emit, timed until every frame of it is delivered
     */
    HeldFrame(Tuple first, NodeInfo worker, int[] destTasks, byte[] frame, int epoch, int hops, EmitDelivery delivery) {
        this(first, worker, destTasks, frame, epoch, hops, delivery, false);
    }

    private HeldFrame(Tuple first, NodeInfo worker, int[] destTasks, byte[] frame, int epoch, int hops, EmitDelivery delivery,
                      boolean alone) {
        this.alone = alone;
        this.placeholder = new AddressedTuple(destTasks[0], first);
        this.worker = worker;
        this.destTasks = destTasks;
        this.frame = frame;
        this.epoch = epoch;
        this.hops = hops;
        this.delivery = delivery;
    }

    /** The message for the transfer queue, routed to {@link #worker} by a task there. */
    FrameMessage message() {
        return relayed() ? new RelayFrameMessage(destTasks[0], frame) : new BatchTupleMessage(destTasks[0], frame);
    }

    /**
     * The relay frame of {@code epoch} for a member sent around while its connection is up (stalled): its own
     * {@code tasks} alone, no member below it. Nobody waits for its credit.
     */
    static HeldFrame alone(Tuple first, NodeInfo worker, int[] tasks, byte[] frame, int epoch, EmitDelivery delivery) {
        return new HeldFrame(first, worker, tasks, frame, epoch, 1, delivery, true);
    }

    boolean relayed() {
        return epoch != NOT_RELAYED;
    }

    /** Whether it is a relay frame for a member sent around ({@link #alone}). */
    boolean alone() {
        return alone;
    }

    int epoch() {
        return epoch;
    }

    int hops() {
        return hops;
    }

    EmitDelivery delivery() {
        return delivery;
    }

    /** It found its window full at {@code nowNanos}; the first time counts. */
    void windowBlocked(long nowNanos) {
        if (windowBlockedSinceNanos < 0) {
            windowBlockedSinceNanos = nowNanos;
        }
    }

    /** Whether it ever found its window full: then {@link #windowBlockedNanos} is how long it waited. */
    boolean wasWindowBlocked() {
        return windowBlockedSinceNanos >= 0;
    }

    long windowBlockedNanos(long nowNanos) {
        return nowNanos - windowBlockedSinceNanos;
    }

    /** What parks in {@code pendingEmits} in its place. */
    AddressedTuple placeholder() {
        return placeholder;
    }

    NodeInfo worker() {
        return worker;
    }

    int[] destTasks() {
        return destTasks;
    }

    byte[] frame() {
        return frame;
    }
}
