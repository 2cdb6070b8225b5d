package io.whale.relay;

/**
 * Watches the source's queue against the controller's waterline: when it rises above it, and how long it takes to
 * come back under it (the paper measures 126 ms from a rate step). Pure: time and lengths passed in, one caller.
 */
final class WaterlineWatch {
    /** The queue crossed the waterline: up ({@code aboveNanos} 0), or back down after {@code aboveNanos} above it. */
    record Crossing(boolean up, int length, long aboveNanos, int peak) {
    }

    private final int waterline;
    private boolean above;
    private long aboveSinceNanos;
    private int peak;

    WaterlineWatch(int waterline) {
        this.waterline = waterline;
    }

    /** A sample of the queue at {@code nowNanos}: the crossing it shows, or null. */
    Crossing sample(long nowNanos, int length) {
        if (length > waterline) {
            peak = above ? Math.max(peak, length) : length;
            if (!above) {
                above = true;
                aboveSinceNanos = nowNanos;
                return new Crossing(true, length, 0, length);
            }
            return null;
        }
        if (!above) {
            return null;
        }
        above = false;
        return new Crossing(false, length, nowNanos - aboveSinceNanos, peak);
    }
}
