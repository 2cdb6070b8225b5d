package io.whale.multicast.monitor;

/**
 * Watches the source's queue against the controller's waterline: when it rises above it, and how long it takes to
 * come back under it (the paper measures 126 ms from a rate step). The queue is back under once {@code confirm}
 * samples in a row are under it (a window-bound source's backlog flickers from sample to sample); the time above
 * ends at the first of them. Pure: time and lengths passed in, one caller.
 */
public final class WaterlineWatch {
    /** The queue crossed the waterline: up ({@code aboveNanos} 0), or back down after {@code aboveNanos} above it. */
    public record Crossing(boolean up, int length, long aboveNanos, int peak) {
    }

    private final int waterline;
    private final int confirm;
    private boolean above;
    private long aboveSinceNanos;
    private long underSinceNanos;
    private int underSamples;
    private int peak;

    public WaterlineWatch(int waterline, int confirm) {
        this.waterline = waterline;
        this.confirm = confirm;
    }

    /** A sample of the queue at {@code nowNanos}: the crossing it shows, or null. */
    public Crossing sample(long nowNanos, int length) {
        if (length > waterline) {
            underSamples = 0;
            if (above) {
                peak = Math.max(peak, length);
                return null;
            }
            above = true;
            aboveSinceNanos = nowNanos;
            peak = length;
            return new Crossing(true, length, 0, length);
        }
        if (!above) {
            return null;
        }
        if (underSamples++ == 0) {
            underSinceNanos = nowNanos;
        }
        if (underSamples < confirm) {
            return null;
        }
        above = false;
        underSamples = 0;
        return new Crossing(false, length, underSinceNanos - aboveSinceNanos, peak);
    }
}
