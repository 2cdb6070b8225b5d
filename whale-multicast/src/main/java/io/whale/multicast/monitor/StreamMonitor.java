package io.whale.multicast.monitor;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures the source's input rate (paper §4): arrivals are counted on the hot path, and every Δt
 * {@link #tick()} smooths the interval's rate N(t) into λ(t) = α·λ(t−1) + (1−α)·N(t).
 *
 * <p>Robustness: N(t) is the count divided by the time actually elapsed since the previous tick, so a late or
 * missed tick (a gap) does not read as a burst. A single interval more than {@code outlierFactor} times above or
 * below λ is clamped to that factor; if the next interval is also out of range, the level shift is accepted.
 *
 * <p>Thread-safe; {@link #recordArrival()} is one atomic increment and allocates nothing.
 */
public final class StreamMonitor {
    private final AtomicLong arrivals = new AtomicLong();
    private final NanoClock clock;
    private final double alpha;
    private final double outlierFactor;

    private long lastTickNanos;
    private long lastCount;
    private double rate = Double.NaN;
    private boolean previousWasOutlier;

    public StreamMonitor(NanoClock clock, double alpha, double outlierFactor) {
        if (!(alpha >= 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be in [0, 1), got " + alpha);
        }
        if (!(outlierFactor > 1)) {
            throw new IllegalArgumentException("outlierFactor must be > 1, got " + outlierFactor);
        }
        this.clock = clock;
        this.alpha = alpha;
        this.outlierFactor = outlierFactor;
        this.lastTickNanos = clock.nanoTime();
    }

    public void recordArrival() {
        arrivals.incrementAndGet();
    }

    public void recordArrivals(long count) {
        arrivals.addAndGet(count);
    }

    /** Closes the interval and returns λ in tuples per second (NaN until an interval of positive length). */
    public synchronized double tick() {
        long now = clock.nanoTime();
        long elapsed = now - lastTickNanos;
        if (elapsed <= 0) {
            return rate;
        }
        long count = arrivals.get();
        double observed = (count - lastCount) * 1e9 / elapsed;
        lastCount = count;
        lastTickNanos = now;
        if (Double.isNaN(rate) || rate == 0) {
            rate = observed;
            return rate;
        }
        boolean outlier = observed > rate * outlierFactor || observed < rate / outlierFactor;
        if (outlier && !previousWasOutlier) {
            observed = Math.max(rate / outlierFactor, Math.min(rate * outlierFactor, observed));
        }
        previousWasOutlier = outlier && !previousWasOutlier;
        rate = alpha * rate + (1 - alpha) * observed;
        return rate;
    }

    /** The current λ(t) in tuples per second. */
    public synchronized double rate() {
        return rate;
    }

    public long totalArrivals() {
        return arrivals.get();
    }
}
