package io.whale.flow;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sampled frames in flight on one connection, each waiting for its credit ({@link EmitDelivery}). A credit counts
 * tuples and covers whole frames in the order they were sent (a receiving worker credits the frames of a batch
 * together, in arrival order; a relay credits a child's frames oldest first), so the connection keeps two running
 * totals, the tuples sent and the tuples credited, and a timed frame is done once the credited total reaches the sent
 * total just after it. An untimed frame only adds to the sent total, without a lock: only the sampled emits
 * (Storm's {@code topology.stats.sample.rate}) cost a queue entry. A lost connection loses its frames: their emits are
 * not timed, and both totals start again. Thread safe: executors add frames, the connection's thread credits them;
 * emits are completed outside the lock.
 */
public final class DeliveryTimes {
    /** One frame on the connection: its emit and the sent total once it was added. */
    public static final class Frame {
        private final EmitDelivery emit;
        private final long sentUpTo;

        private Frame(EmitDelivery emit, long sentUpTo) {
            this.emit = emit;
            this.sentUpTo = sentUpTo;
        }
    }

    /** What {@link #sent} returns for a frame of an untimed emit. */
    private static final Frame UNTIMED = new Frame(EmitDelivery.UNTIMED, 0);

    private final ArrayDeque<Frame> timed = new ArrayDeque<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong credited = new AtomicLong();
    /** Whether {@link #timed} holds a frame: a credit reads it before taking the lock. */
    private volatile boolean anyTimed;

    /** Counts a frame of {@code emit} carrying {@code tuples}, timed if the emit is; before it can be sent, so its credit finds it. */
    Frame sent(EmitDelivery emit, int tuples) {
        if (!emit.timed()) {
            sent.addAndGet(tuples);
            return UNTIMED;
        }
        synchronized (this) {
            Frame frame = new Frame(emit, sent.addAndGet(tuples));
            timed.addLast(frame);
            anyTimed = true;
            return frame;
        }
    }

    /**
     * The frame of {@code tuples} was not sent after all. A frame counted after it and before this keeps its place in
     * the sent total, so it is done that many tuples late: the window between the two is one failed publish.
     */
    void unsent(Frame frame, int tuples) {
        sent.addAndGet(-tuples);
        if (frame != UNTIMED) {
            synchronized (this) {
                timed.removeLastOccurrence(frame);
                anyTimed = !timed.isEmpty();
            }
        }
    }

    /** The peer credited {@code tuples} at {@code nowNanos}. */
    void credited(int tuples, long nowNanos) {
        long total = credited.addAndGet(tuples);
        long sentTotal = sent.get();
        if (total > sentTotal) {
            // credit for what was sent before the connection was lost: never ahead of what was sent since
            credited.compareAndSet(total, sentTotal);
            total = sentTotal;
        }
        if (!anyTimed) {
            return;
        }
        List<Frame> done = new ArrayList<>(2);
        synchronized (this) {
            while (!timed.isEmpty() && timed.peekFirst().sentUpTo <= total) {
                done.add(timed.pollFirst());
            }
            anyTimed = !timed.isEmpty();
        }
        done.forEach(frame -> frame.emit.done(nowNanos));
    }

    /** The connection went down or is new: nothing in flight on it will be credited. */
    void lost() {
        List<Frame> lost;
        synchronized (this) {
            lost = new ArrayList<>(timed);
            timed.clear();
            anyTimed = false;
            sent.set(0);
            credited.set(0);
        }
        lost.forEach(frame -> frame.emit.abandon());
    }

    /** The timed frames waiting for their credit. */
    synchronized int timedInFlight() {
        return timed.size();
    }
}
