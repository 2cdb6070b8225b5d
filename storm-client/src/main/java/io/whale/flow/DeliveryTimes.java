package io.whale.flow;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The timed frames in flight on one connection, in send order, each waiting for its credit ({@link EmitDelivery}).
 * A credit counts tuples and covers whole frames in the order they were sent (a receiving worker credits the frames
 * of a batch together, in arrival order; a relay credits a child's frames oldest first), so it completes the oldest
 * frames it covers and keeps the rest for the next. A lost connection loses its frames: their emits are not timed.
 * Thread safe: executors add frames, the connection's thread credits them; emits are completed outside the lock.
 */
public final class DeliveryTimes {
    /** One frame on the connection: its emit and the tuples its credit will count. */
    public static final class Frame {
        private final EmitDelivery emit;
        private final int tuples;

        private Frame(EmitDelivery emit, int tuples) {
            this.emit = emit;
            this.tuples = tuples;
        }
    }

    private final ArrayDeque<Frame> inFlight = new ArrayDeque<>();
    /** Credited tuples that do not cover the oldest frame yet. */
    private long credit;

    /** Times a frame of {@code emit} carrying {@code tuples}; before it can be sent, so its credit finds it. */
    synchronized Frame sent(EmitDelivery emit, int tuples) {
        Frame frame = new Frame(emit, tuples);
        inFlight.addLast(frame);
        return frame;
    }

    /** The frame was not sent after all. */
    synchronized void unsent(Frame frame) {
        inFlight.removeLastOccurrence(frame);
    }

    /** The peer credited {@code tuples} at {@code nowNanos}. */
    void credited(int tuples, long nowNanos) {
        List<Frame> done = List.of();
        synchronized (this) {
            credit += tuples;
            while (!inFlight.isEmpty() && inFlight.peekFirst().tuples <= credit) {
                Frame frame = inFlight.pollFirst();
                credit -= frame.tuples;
                if (done.isEmpty()) {
                    done = new ArrayList<>();
                }
                done.add(frame);
            }
            if (inFlight.isEmpty()) {
                credit = 0;
            }
        }
        done.forEach(frame -> frame.emit.done(nowNanos));
    }

    /** The connection went down or is new: nothing in flight on it will be credited. */
    void lost() {
        List<Frame> lost;
        synchronized (this) {
            lost = new ArrayList<>(inFlight);
            inFlight.clear();
            credit = 0;
        }
        lost.forEach(frame -> frame.emit.abandon());
    }

    synchronized int inFlight() {
        return inFlight.size();
    }
}
