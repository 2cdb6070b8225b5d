package io.whale.flow;

import java.util.Arrays;

/**
 * Sizes one connection's {@link FrameWindow} to what its path delivers, so that a link slower than the sender
 * queues about {@code targetDelay} of frames, not seconds of them: capacity = the highest recent delivery rate ×
 * (the lowest recent round trip + {@code targetDelay}), between a floor and the configured window. The estimates
 * are BBR's (a max-filtered delivery rate and a min-filtered round trip), taken from one timed frame at a time as
 * TCP times one segment per round trip: a probe starts with a frame sent while none is timed, one that fills the
 * window ({@link #timesAnyFrame} says when any frame will do), and ends when the credit for everything in flight up to
 * and including that frame has returned. Its round trip is the time between, its delivery rate the tuples credited
 * meanwhile over that time — or, when credit was owed for frames ahead of it, over the time since the last credit
 * before it, if that is longer (BBR's "ack elapsed"). A path that loses packets goes silent while TCP retransmits and
 * then hands the receiver all it held at once, one credit for the whole silence: timed from the frame, that burst
 * reads as many times the rate the link carried (a window of 8,120 tuples behind a lowest round trip of 3.6 ms, one of
 * seven connections sharing a 2-Mbit/s link, is some 150,000 tuples/s), and a window sized from it holds seconds of
 * frames, whose credit a retransmission's backoff can then hold past the stall bound ({@link CreditStall}).
 *
 * <p>A relay frame's credit comes back once its whole subtree has it, so its round trip passes through every worker
 * on the subtree's longest path, each of which batches and waits its turn on a shared CPU. The target delay is
 * allowed per worker on that path, for the deepest of the frames timed in the last 10 round trips (a connection may
 * carry frames of several trees, and BatchTuple frames, which pass through one): sized to one delay, a chain of seven
 * relays carried 4 % less than its rate while the lowest round trip it timed was a sixth of its usual one. The
 * lowest round trip is one for all of them.
 *
 * <p>While the window binds, a path with room delivers up to capacity / round trip, which is more than the rate the
 * capacity was sized from by the factor (1 + targetDelay / round trip): the window grows each round trip until the
 * path is full, then holds about {@code targetDelay} of queue. A sender that sends little shrinks its window with its
 * rate and widens it again at that factor per round trip when it sends more.
 *
 * <p>The lowest round trip is measured again, behind a drained queue, once it is 10 s old: for one timed frame the
 * window is the floor (BBR's ProbeRTT drains the same way, to four packets), and the round trip of that frame is the
 * new minimum whatever it is. Taking any later sample instead would let a busy path creep: each sample holds the
 * target delay of queue, so each new minimum would add it again (50 ms more queue every 10 s). Draining only to the
 * estimated bandwidth-delay product (rate × lowest round trip) instead kept any overestimate: on 2-Mbit/s links a
 * rate read from a burst of credit, times a round trip timed behind the queue it built, held the windows at
 * 849–8,192 tuples behind lowest round trips of 70 ms to 1.2 s. It costs the path about one round trip at the floor
 * every 10 s. When the path changes (a relay tree was reshaped, so the subtree behind the connection did; before any
 * round trip was timed this only starts the timing again) the window is the bandwidth-delay product for that frame,
 * which carries the rate across frequent switches: a minimum kept from a shallower subtree would size the window
 * below what the deeper one needs to carry the same rate, and shrink it at every round trip until it expired.
 *
 * <p>Pure and single-threaded: time is passed in; {@link FrameWindow} serialises the calls.
 */
public final class WindowSizer {
    /** A window never sized below this many tuples (a frame wider than the window still goes, alone). */
    public static final int FLOOR_TUPLES = 64;
    /** Round-trip samples older than this no longer hold the minimum: the path may have changed. */
    static final long MIN_RTT_EXPIRY_NANOS = 10_000_000_000L;
    /** Delivery-rate samples the maximum is taken over (one per round trip). */
    static final int RATE_SAMPLES = 10;
    private static final long NOTHING_OWED = Long.MIN_VALUE;

    private final int ceiling;
    private final long targetDelayNanos;
    private final double[] rates = new double[RATE_SAMPLES];
    /** The hops of the frames those rates were timed with. */
    private final int[] hops = new int[RATE_SAMPLES];
    private int nextRate;
    private int capacity;
    private long minRttNanos;
    private long minRttAtNanos;
    private boolean probing;
    /** The round trip is being measured again: the next timed frame's is the new minimum, whatever it is. */
    private boolean remeasuring;
    private long probeStartNanos;
    private long probeOwed;
    private long probeCredited;
    private int probeHops;
    /** The last credit while more was owed ({@link #NOTHING_OWED} once everything in flight was credited). */
    private long lastCreditNanos;
    /** Where the timed frame's delivery interval starts: its send, or the last credit before it while credit was owed. */
    private long probeIntervalStartNanos;

    /**
     * @param ceiling the configured window (tuples), which the sized one never exceeds; above 0
     * @param targetDelayNanos the queueing the window allows beyond the round trip; above 0
     */
    WindowSizer(int ceiling, long targetDelayNanos) {
        if (ceiling <= 0 || targetDelayNanos <= 0) {
            throw new IllegalArgumentException("a sized window needs a ceiling and a target delay above 0, not "
                + ceiling + " tuples and " + targetDelayNanos + " ns");
        }
        this.ceiling = ceiling;
        this.targetDelayNanos = targetDelayNanos;
        reset();
    }

    /** Forgets the path (a new connection): the window starts at the ceiling until the first probe returns. */
    void reset() {
        Arrays.fill(rates, 0);
        Arrays.fill(hops, 0);
        nextRate = 0;
        capacity = ceiling;
        minRttNanos = Long.MAX_VALUE;
        probing = false;
        remeasuring = false;
        lastCreditNanos = NOTHING_OWED;
    }

    /**
     * Times the round trip again behind the bandwidth-delay product: the path behind the connection changed. A sizer
     * that has timed nothing yet only drops its current timing.
     */
    void timeRoundTripAgain() {
        timeRoundTripAgainBehind(minRttNanos == Long.MAX_VALUE ? capacity : bounded(maxRate() * minRttNanos));
    }

    /** Times the round trip again with the window at {@code window} tuples for the timed frame. */
    private void timeRoundTripAgainBehind(int window) {
        probing = false;
        remeasuring = true;
        capacity = window;
    }

    private double maxRate() {
        double max = 0;
        for (double rate : rates) {
            max = Math.max(max, rate);
        }
        return max;
    }

    private int maxHops() {
        int max = 1;
        for (int h : hops) {
            max = Math.max(max, h);
        }
        return max;
    }

    private int bounded(double tuples) {
        return (int) Math.min(ceiling, Math.max(floor(), Math.ceil(tuples)));
    }

    private int floor() {
        return Math.min(FLOOR_TUPLES, ceiling);
    }

    boolean probing() {
        return probing;
    }

    /**
     * Whether the next frame is timed whatever is in flight: before the first round trip was timed, and to time it
     * again behind a drained queue. Otherwise only a frame that fills the window is: one sent with less in flight
     * (the first of a burst, say) would measure the sender's rate, not the path's, and size the window down to it.
     */
    boolean timesAnyFrame() {
        return remeasuring || minRttNanos == Long.MAX_VALUE;
    }

    /**
     * Times the frame just sent: it is due back once {@code inFlight} tuples (itself included) are credited. It
     * passes through {@code hops} workers (1 but for a relay frame, whose credit comes back from its whole subtree).
     */
    void startProbe(long inFlight, int hops, long nowNanos) {
        probing = true;
        probeHops = Math.max(1, hops);
        probeStartNanos = nowNanos;
        probeIntervalStartNanos = lastCreditNanos == NOTHING_OWED ? nowNanos : Math.min(lastCreditNanos, nowNanos);
        probeOwed = inFlight;
        probeCredited = 0;
    }

    /** Everything in flight was credited (or given back): the next timed frame's interval starts at its own send. */
    void drained() {
        lastCreditNanos = NOTHING_OWED;
    }

    /** A frame that was let out was not sent after all: the timed one may be it, so no sample from this probe. */
    void abandonProbe() {
        probing = false;
    }

    /** Credit for {@code tuples} returned; ends the probe once all that was in flight at its start is back. */
    void credited(int tuples, long nowNanos) {
        lastCreditNanos = nowNanos;
        if (!probing) {
            return;
        }
        probeCredited += tuples;
        if (probeCredited < probeOwed) {
            return;
        }
        probing = false;
        long rtt = Math.max(1, nowNanos - probeStartNanos);
        rates[nextRate] = (double) probeCredited / Math.max(rtt, nowNanos - probeIntervalStartNanos);
        hops[nextRate] = probeHops;
        nextRate = (nextRate + 1) % RATE_SAMPLES;
        if (remeasuring || rtt <= minRttNanos) {
            remeasuring = false;
            minRttNanos = rtt;
            minRttAtNanos = nowNanos;
        } else if (nowNanos - minRttAtNanos > MIN_RTT_EXPIRY_NANOS) {
            timeRoundTripAgainBehind(floor()); // the lowest is old: behind a queue drained to the floor
            return;
        }
        capacity = bounded(maxRate() * (minRttNanos + targetDelayNanos * maxHops()));
    }

    /** Tuples the window may have in flight now. */
    int capacity() {
        return capacity;
    }

    /** The lowest recent round trip (ns), or {@link Long#MAX_VALUE} before the first probe returned. */
    long minRttNanos() {
        return minRttNanos;
    }
}
