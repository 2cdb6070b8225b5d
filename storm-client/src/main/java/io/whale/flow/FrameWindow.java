package io.whale.flow;

import io.whale.config.WocConfig;
import io.whale.config.WhaleConfig;
import io.whale.config.WhaleConfigValidation;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * How much one worker may have in flight to one destination worker in WOC frames, counted in the tuples they
 * carry (one per destination task): sent, and not yet handed to the destination's executors. The destination's
 * server returns a credit for what it dispatched ({@link FrameCredit}); a sender whose window is full holds its
 * next frame ({@link HeldFrame}) and the executor waits as under Storm's backpressure. Without it the backlog
 * of a saturated receiver sits in Netty's outbound buffer and the socket buffers, which are sized in bytes: at
 * 32 destinations a frame, 16 MB of frames hold 32 times the deliveries that 16 MB of stock messages hold, and
 * seconds of latency. Tuples, not frames, because the receiver's work, hence the time a backlog takes to drain,
 * grows with the tuples: a window of frames would hold 16 times more work at 32 destinations than at 2.
 *
 * <p>A frame is admitted while the count is under the capacity, so a frame wider than the whole window still
 * goes, alone. The window is enforced only while its connection is up: a frame sent on a connection that is
 * down is dropped by Storm's client as a stock message would be (and counted there), and a new connection
 * starts with nothing in flight. Credits never push the count below zero, so frames admitted before a
 * reconnect and sent after it can only lend the window a little, never wedge it.
 *
 * <p>With {@link WhaleConfig#WOC_WINDOW_DELAY_MS} above 0 (the default) the window is sized to its path by a
 * {@link WindowSizer}, never above the configured capacity: to the delivery rate × (round trip + that delay). A
 * path slower than the sender then queues that delay of frames instead of a whole window of them — at 1 Mbit/s,
 * 8,192 tuples are seconds of a link — so an overload reaches the sender's queue, where the backpressure and the
 * multicast controller see it, within a round trip.
 *
 * <p>A window with frames in flight and no credit for {@link WhaleConfig#WOC_STALL_MS} is stalled ({@link CreditStall}):
 * its destination stopped returning credit, as a partitioned host does with its connection still open. The sender
 * then stops holding its executor, and with it every other destination, for the frames the window refuses
 * ({@link #refused}): it sends them on beyond the window, into the transport's buffer, up to
 * {@link WhaleConfig#WOC_STALL_BUFFER_BYTES} ({@link #overdraw}), as stock Storm's client buffers a live connection's
 * messages up to Netty's high watermark, and drops them, counted, only once that is spent. A silence of a live
 * connection (TCP backing off its retransmissions, a receiver's host busy) so loses nothing; a partition loses what
 * comes after the buffer. The buffer is repaid once the window has room again. The relay sends around a stalled
 * destination ({@link #stalled}), until its next credit. A live
 * destination credits each frame as it takes it, so the wait is counted from the last credit, full window or not: a
 * window sized up by a burst of credit (a relay settling what it held) could take longer than a partition to fill.
 *
 * <p>It also times the frames of sampled emits for them ({@link DeliveryTimes}, the multicast latency): a credit
 * completes the oldest frames it covers; a connection that goes down or comes up loses them.
 *
 * <p>Thread safe: executors acquire, the client's event loop returns credits. The sizer is called under its lock:
 * on every credit, on an acquire only while no frame is timed and the sizer would time this one, and when the path
 * changed; nothing under that lock calls out of this class, so callers may hold their own locks.
 */
public final class FrameWindow {
    /** The window of a connection that returns no credits (local transport, WOC off): always open. */
    public static final FrameWindow UNBOUNDED = new FrameWindow(0);
    /** Tuples in flight per destination worker when {@link WhaleConfig#WOC_WINDOW_TUPLES} is unset. */
    public static final int DEFAULT_CAPACITY = 8192;
    /** The queueing (ms) a sized window allows beyond the round trip when {@link WhaleConfig#WOC_WINDOW_DELAY_MS} is unset. */
    public static final int DEFAULT_DELAY_MS = 50;

    private final int capacity;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final WindowSizer sizer;
    /** Read only to time a frame, at a credit and at a refusal, never for an untimed send. */
    private final LongSupplier nanoClock;
    private volatile int sizedCapacity;
    private volatile long minRttNanos = Long.MAX_VALUE;
    private volatile boolean probing;
    /** The sizer times the next frame whatever is in flight, not only one that fills the window. */
    private volatile boolean timesAnyFrame;
    private volatile boolean enforced;
    private final DeliveryTimes deliveries = new DeliveryTimes();
    private final CreditStall stall;
    /** Bytes a stalled window may send beyond its room ({@link #overdraw}); 0: it drops at once. */
    private final long stallBufferBytes;
    /** Bytes sent beyond the window since it last had room. */
    private final AtomicLong overdrawn = new AtomicLong();

    /** A window of {@code capacity} tuples, not sized to its path, that never stalls; 0 is no window. */
    public FrameWindow(int capacity) {
        this(capacity, 0);
    }

    /**
     * A window of at most {@code capacity} tuples (0: no window) sized to its path so that about {@code delayMs} of
     * frames queue beyond the round trip ({@code delayMs} 0: always {@code capacity}); it never stalls.
     */
    public FrameWindow(int capacity, int delayMs) {
        this(capacity, delayMs, System::nanoTime);
    }

    FrameWindow(int capacity, int delayMs, LongSupplier nanoClock) {
        this(capacity, delayMs, 0, nanoClock);
    }

    /**
     * As {@link #FrameWindow(int, int)}, stalled once frames were in flight with no credit for {@code stallNanos} (0: never);
     * stalled, it drops what it refuses at once.
     */
    public FrameWindow(int capacity, int delayMs, long stallNanos, LongSupplier nanoClock) {
        this(capacity, delayMs, stallNanos, 0, nanoClock);
    }

    /** As {@link #FrameWindow(int, int, long, LongSupplier)}; stalled, it sends up to {@code stallBufferBytes} beyond its room. */
    public FrameWindow(int capacity, int delayMs, long stallNanos, long stallBufferBytes, LongSupplier nanoClock) {
        if (capacity < 0 || delayMs < 0 || stallBufferBytes < 0) {
            throw new IllegalArgumentException("a frame window holds 0 (none) or more tuples, sizes itself to a delay of "
                + "0 (fixed) or more ms and buffers 0 or more bytes once stalled, not " + capacity + " tuples, " + delayMs
                + " ms and " + stallBufferBytes + " bytes");
        }
        this.stallBufferBytes = stallBufferBytes;
        this.capacity = capacity;
        this.sizer = capacity > 0 && delayMs > 0 ? new WindowSizer(capacity, delayMs * 1_000_000L) : null;
        this.sizedCapacity = capacity;
        this.nanoClock = nanoClock;
        this.stall = new CreditStall(stallNanos);
    }

    /** The window of a client connection of a topology: {@link WhaleConfig#WOC_WINDOW_TUPLES} if WOC is on. */
    public static FrameWindow forTopology(Map<String, Object> topoConf) {
        return forTopology(topoConf, System::nanoTime);
    }

    static FrameWindow forTopology(Map<String, Object> topoConf, LongSupplier nanoClock) {
        if (!WocConfig.isEnabled(topoConf)) {
            return UNBOUNDED;
        }
        int capacity = WhaleConfigValidation.intOr(topoConf, WhaleConfig.WOC_WINDOW_TUPLES, DEFAULT_CAPACITY);
        int delayMs = WhaleConfigValidation.intOr(topoConf, WhaleConfig.WOC_WINDOW_DELAY_MS, DEFAULT_DELAY_MS);
        return capacity == 0 ? UNBOUNDED
            : new FrameWindow(capacity, delayMs, CreditStall.boundNanos(topoConf), CreditStall.bufferBytes(topoConf), nanoClock);
    }

    /** Takes room for a frame of {@code tuples}; false when the window is enforced and full (the frame must wait). */
    public boolean tryAcquire(int tuples) {
        return tryAcquire(tuples, 1);
    }

    /**
     * {@link #tryAcquire(int)} for a frame whose credit comes back through {@code hops} workers (a relay frame's
     * subtree, on its longest path): a sized window allows each of them the delay.
     */
    public boolean tryAcquire(int tuples, int hops) {
        if (capacity == 0 || !enforced) {
            return true;
        }
        while (true) {
            int current = inFlight.get();
            if (current >= sizedCapacity) {
                return false;
            }
            if (inFlight.compareAndSet(current, current + tuples)) {
                if (current == 0) {
                    stall.credited(); // nothing was in flight: a wait a racing credit left behind is over
                }
                stall.waiting(nanoClock);
                if (sizer != null && !probing && (timesAnyFrame || current + tuples >= sizedCapacity)) {
                    startProbe(hops);
                }
                return true;
            }
        }
    }

    private void startProbe(int hops) {
        synchronized (sizer) {
            if (!sizer.probing()) {
                sizer.startProbe(inFlight.get(), hops, nanoClock.getAsLong());
                publish();
            }
        }
    }

    /**
     * {@link #tryAcquire} refused a frame: whether frames have now been in flight, with no credit, for the stall bound,
     * so that the caller no longer holds the frame: it sends it beyond the window ({@link #overdraw}) or drops it, counted.
     */
    public boolean refused() {
        stall.waiting(nanoClock);
        return stalled();
    }

    /**
     * Takes room beyond the window for a frame of {@code tuples} and {@code bytes} that a stalled window refused
     * ({@link #refused}): true while less than the stall buffer has been sent so since the window last had room (a frame
     * wider than the whole buffer still goes, alone); false once it is spent, and the caller drops the frame. A frame
     * taken so and then not sent ({@link #cancel}) stays counted against the buffer: it errs toward dropping sooner.
     */
    public boolean overdraw(int tuples, int bytes) {
        while (true) {
            long current = overdrawn.get();
            if (current >= stallBufferBytes) {
                return false;
            }
            if (overdrawn.compareAndSet(current, current + bytes)) {
                inFlight.addAndGet(tuples);
                return true;
            }
        }
    }

    /**
     * Counts in flight {@code tuples} sent on this connection without asking the window (a lost member's frames, sent on
     * once to its children by the relay), so that their credit gives back what they took; they wait for it as any frame.
     */
    public void sentBeyond(int tuples) {
        if (capacity == 0 || !enforced) {
            return;
        }
        if (inFlight.getAndAdd(tuples) == 0) {
            stall.credited(); // nothing was in flight: a wait a racing credit left behind is over
        }
        stall.waiting(nanoClock);
    }

    /** Whether the destination is stalled: frames in flight, with no credit, for the bound. */
    public boolean stalled() {
        return enforced && stall.stalled(nanoClock);
    }

    /**
     * Gives back room taken by {@link #tryAcquire} for a frame that was then not sent after all, and forgets its timing
     * ({@link #timeDelivery}; null if it was not timed).
     */
    public void cancel(int tuples, DeliveryTimes.Frame timed) {
        if (timed != null) {
            deliveries.unsent(timed, tuples);
        }
        giveBack(tuples, false, 0);
    }

    /**
     * The destination is alive and its credit waits for a member below it (a relay's beat): what is in flight waits for
     * credit from now on, not since the last credit.
     */
    public void alive() {
        if (capacity == 0) {
            return;
        }
        creditCame(nanoClock.getAsLong());
    }

    /** Credit or a beat came at {@code nowNanos}: what is still in flight waits for the next from now on. */
    private void creditCame(long nowNanos) {
        stall.credited();
        if (inFlight.get() > 0) {
            stall.waiting(nowNanos);
        }
    }

    /** The destination dispatched frames carrying {@code tuples}. */
    public void credit(int tuples) {
        if (capacity == 0) {
            return;
        }
        long now = nanoClock.getAsLong();
        giveBack(tuples, true, now);
        creditCame(now);
        deliveries.credited(tuples, now);
    }

    /**
     * Counts a frame of {@code emit} carrying {@code tuples}, timed until its credit if the emit is sampled; before the
     * frame can be sent. Null when
     * this window is never credited ({@link #UNBOUNDED}): the caller counts the frame done once it is sent.
     */
    public DeliveryTimes.Frame timeDelivery(EmitDelivery emit, int tuples) {
        return capacity == 0 ? null : deliveries.sent(emit, tuples);
    }

    /** A cancelled frame may be the timed one, so it abandons the timing; a credit ({@code nowNanos}) may end it. */
    private void giveBack(int tuples, boolean credited, long nowNanos) {
        if (capacity == 0) {
            return;
        }
        if (sizer == null) {
            repayIfRoom(inFlight.updateAndGet(current -> Math.max(0, current - tuples)));
            return;
        }
        synchronized (sizer) {
            int left = inFlight.updateAndGet(current -> Math.max(0, current - tuples));
            if (credited) {
                sizer.credited(tuples, nowNanos);
            } else {
                sizer.abandonProbe();
            }
            if (left == 0) {
                sizer.drained();
            }
            publish();
            repayIfRoom(left);
        }
    }

    /** The window has room again with {@code left} in flight: what went beyond it was credited, the stall buffer is whole. */
    private void repayIfRoom(int left) {
        if (left < sizedCapacity && overdrawn.get() != 0) {
            overdrawn.set(0);
        }
    }

    /** Copies the sizer's state to what the executors read without its lock; called under it. */
    private void publish() {
        sizedCapacity = sizer.capacity();
        probing = sizer.probing();
        timesAnyFrame = sizer.timesAnyFrame();
        minRttNanos = sizer.minRttNanos();
    }

    /**
     * What a frame on this connection travels through changed (a relay tree was reshaped): a sized window measures
     * the round trip again, so that it is sized to the new path, not to the old one's round trip for 10 s.
     */
    public void pathChanged() {
        if (sizer == null) {
            return;
        }
        synchronized (sizer) {
            sizer.timeRoundTripAgain();
            publish();
        }
    }

    /** A new connection is up: nothing is in flight on it, and it returns credits. */
    public void onConnected() {
        forgetPath();
        enforced = capacity > 0;
    }

    /** The connection is down: what was in flight is lost with it, and sends are not held meanwhile. */
    public void onDisconnected() {
        enforced = false;
        forgetPath();
    }

    private void forgetPath() {
        stall.credited();
        overdrawn.set(0);
        deliveries.lost();
        if (sizer == null) {
            inFlight.set(0);
            return;
        }
        synchronized (sizer) {
            inFlight.set(0);
            sizer.reset();
            publish();
        }
    }

    public int inFlight() {
        return inFlight.get();
    }

    /** The configured capacity (tuples): what a sized window never exceeds. */
    public int capacity() {
        return capacity;
    }

    /** The lowest recent round trip a sized window was sized with (µs); -1 for a fixed one and before the first. */
    public long roundTripMicros() {
        long rtt = minRttNanos;
        return rtt == Long.MAX_VALUE ? -1 : rtt / 1_000;
    }

    /** What the window admits now: the configured capacity, or what the sizer made of it. */
    public int sizedCapacity() {
        return sizedCapacity;
    }
}
