package io.whale.woc;

import io.whale.config.WhaleConfig;
import io.whale.config.WhaleConfigValidation;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.utils.ObjectReader;

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
 * <p>Thread safe: executors acquire, the client's event loop returns credits.
 */
public final class FrameWindow {
    /** The window of a connection that returns no credits (local transport, RDMA, WOC off): always open. */
    public static final FrameWindow UNBOUNDED = new FrameWindow(0);
    /** Tuples in flight per destination worker when {@link WhaleConfig#WOC_WINDOW_TUPLES} is unset. */
    public static final int DEFAULT_CAPACITY = 8192;

    private final int capacity;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean enforced;

    /** A window of {@code capacity} tuples; 0 is no window. */
    public FrameWindow(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("a frame window holds 0 (none) or more tuples, not " + capacity);
        }
        this.capacity = capacity;
    }

    /** The window of a client connection of a topology: {@link WhaleConfig#WOC_WINDOW_TUPLES} if WOC is on. */
    public static FrameWindow forTopology(Map<String, Object> topoConf) {
        if (!WocConfig.isEnabled(topoConf)) {
            return UNBOUNDED;
        }
        Object value = topoConf.get(WhaleConfig.WOC_WINDOW_TUPLES);
        WhaleConfigValidation.check(WhaleConfig.WOC_WINDOW_TUPLES, value);
        int capacity = value == null ? DEFAULT_CAPACITY : ObjectReader.getInt(value);
        return capacity == 0 ? UNBOUNDED : new FrameWindow(capacity);
    }

    /** Takes room for a frame of {@code tuples}; false when the window is enforced and full (the frame must wait). */
    public boolean tryAcquire(int tuples) {
        if (capacity == 0 || !enforced) {
            return true;
        }
        while (true) {
            int current = inFlight.get();
            if (current >= capacity) {
                return false;
            }
            if (inFlight.compareAndSet(current, current + tuples)) {
                return true;
            }
        }
    }

    /** Gives back room taken by {@link #tryAcquire} for a frame that was then not sent after all. */
    public void cancel(int tuples) {
        credit(tuples);
    }

    /** The destination dispatched frames carrying {@code tuples}. */
    public void credit(int tuples) {
        if (capacity == 0) {
            return;
        }
        inFlight.updateAndGet(current -> Math.max(0, current - tuples));
    }

    /** A new connection is up: nothing is in flight on it, and it returns credits. */
    public void onConnected() {
        inFlight.set(0);
        enforced = capacity > 0;
    }

    /** The connection is down: what was in flight is lost with it, and sends are not held meanwhile. */
    public void onDisconnected() {
        enforced = false;
        inFlight.set(0);
    }

    public int inFlight() {
        return inFlight.get();
    }

    public int capacity() {
        return capacity;
    }
}
