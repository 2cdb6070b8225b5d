package io.whale.woc;

import java.util.Arrays;

/**
 * Sizes one connection's {@link FrameWindow} to what its path delivers, so that a link slower than the sender
 * queues about {@code targetDelay} of frames, not seconds of them: capacity = the highest recent delivery rate ×
 * (the lowest recent round trip + {@code targetDelay}), between a floor and the configured window. The estimates
 * are BBR's (a max-filtered delivery rate and a min-filtered round trip), taken from one timed frame at a time as
 * TCP times one segment per round trip: a probe starts with a frame sent while none is timed and ends when the
 * credit for everything in flight up to and including that frame has returned. Its round trip is the time between,
 * its delivery rate the tuples credited meanwhile over that time.
 *
 * <p>While the window binds, a path with room delivers up to capacity / round trip, which is more than the rate the
 * capacity was sized from by the factor (1 + targetDelay / round trip): the window grows each round trip until the
 * path is full, then holds about {@code targetDelay} of queue. A sender that sends little shrinks its window with its
 * rate and widens it again at that factor per round trip when it sends more.
 *
 * <p>Pure and single-threaded: time is passed in; {@link FrameWindow} serialises the calls.
 */
final class WindowSizer {
    /** A window never sized below this many tuples (a frame wider than the window still goes, alone). */
    static final int FLOOR_TUPLES = 64;
    /** Round-trip samples older than this no longer hold the minimum: the path may have changed. */
    static final long MIN_RTT_EXPIRY_NANOS = 10_000_000_000L;
    /** Delivery-rate samples the maximum is taken over (one per round trip). */
    static final int RATE_SAMPLES = 10;

    private final int ceiling;
    private final long targetDelayNanos;
    private final double[] rates = new double[RATE_SAMPLES];
    private int nextRate;
    private int capacity;
    private long minRttNanos;
    private long minRttAtNanos;
    private boolean probing;
    private long probeStartNanos;
    private long probeOwed;
    private long probeCredited;

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
        nextRate = 0;
        capacity = ceiling;
        minRttNanos = Long.MAX_VALUE;
        probing = false;
    }

    boolean probing() {
        return probing;
    }

    /** Times the frame just sent: it is due back once {@code inFlight} tuples (itself included) are credited. */
    void startProbe(long inFlight, long nowNanos) {
        probing = true;
        probeStartNanos = nowNanos;
        probeOwed = inFlight;
        probeCredited = 0;
    }

    /** A frame that was let out was not sent after all: the timed one may be it, so no sample from this probe. */
    void abandonProbe() {
        probing = false;
    }

    /** Credit for {@code tuples} returned; ends the probe once all that was in flight at its start is back. */
    void credited(int tuples, long nowNanos) {
        if (!probing) {
            return;
        }
        probeCredited += tuples;
        if (probeCredited < probeOwed) {
            return;
        }
        probing = false;
        long rtt = Math.max(1, nowNanos - probeStartNanos);
        if (rtt <= minRttNanos || nowNanos - minRttAtNanos > MIN_RTT_EXPIRY_NANOS) {
            minRttNanos = rtt;
            minRttAtNanos = nowNanos;
        }
        rates[nextRate] = (double) probeCredited / rtt;
        nextRate = (nextRate + 1) % RATE_SAMPLES;
        double maxRate = 0;
        for (double rate : rates) {
            maxRate = Math.max(maxRate, rate);
        }
        double sized = Math.ceil(maxRate * (minRttNanos + targetDelayNanos));
        capacity = (int) Math.min(ceiling, Math.max(Math.min(FLOOR_TUPLES, ceiling), sized));
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
