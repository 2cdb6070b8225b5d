package io.whale.flow;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * One multicast emit of a source executor, timed until its last destination worker has it: the paper's multicast
 * latency, from the source's side. Each frame the emit sends counts until its credit is back ({@link DeliveryTimes}:
 * a WOC frame's once its worker handed it to the executors, a relay frame's once its whole subtree has), or, on a
 * connection that returns no credit (the local transport), until it was sent. The time includes what the frames
 * waited for a window and the credit's way back, a small message. Frames first, then {@link #built} once for the
 * emit itself: the emit cannot be delivered while its frames are still being built. Only a sample of the emits is
 * timed, as Storm samples its own latencies ({@code topology.stats.sample.rate}); the others share {@link #UNTIMED},
 * which does nothing. Pure apart from the sink; thread safe (frames are credited on the connections' threads).
 */
public final class EmitDelivery {
    /** An emit that is not timed: its frames only count towards their connections' totals ({@link DeliveryTimes}). */
    public static final EmitDelivery UNTIMED = new EmitDelivery(0, null);

    /** Where the time of a delivered emit goes. */
    @FunctionalInterface
    public interface Sink {
        void delivered(long nanos);
    }

    private final long emitNanos;
    private final Sink sink;
    /** The frames not yet done, and the emit itself until it has built them all. */
    private final AtomicInteger outstanding = new AtomicInteger(1);
    private volatile boolean anyFrame;
    private volatile boolean abandoned;

    public EmitDelivery(long emitNanos, Sink sink) {
        this.emitNanos = emitNanos;
        this.sink = sink;
    }

    /** Whether this emit is timed. */
    public boolean timed() {
        return sink != null;
    }

    /** The emit built one more frame; call before the frame can be sent. */
    public void frameBuilt() {
        if (sink == null) {
            return;
        }
        anyFrame = true;
        outstanding.incrementAndGet();
    }

    /** A frame of the emit is done at {@code nowNanos}; the last one, after {@link #built}, times the emit. */
    public void done(long nowNanos) {
        if (sink != null && outstanding.decrementAndGet() == 0 && !abandoned) {
            sink.delivered(nowNanos - emitNanos);
        }
    }

    /**
     * The emit has built all its frames; {@code clock} is read only if its frames were all done already. An emit that
     * built no frame (its copies went the stock way, task by task) is not timed.
     */
    public void built(LongSupplier clock) {
        if (sink != null && outstanding.decrementAndGet() == 0 && anyFrame && !abandoned) {
            sink.delivered(clock.getAsLong() - emitNanos);
        }
    }

    /** A frame of the emit will never be credited (its connection was lost): the emit is not timed. */
    public void abandon() {
        if (sink != null) {
            abandoned = true;
        }
    }
}
