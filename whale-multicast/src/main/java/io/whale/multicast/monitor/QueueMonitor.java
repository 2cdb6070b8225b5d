package io.whale.multicast.monitor;

import java.util.function.IntSupplier;

/**
 * Watches the source's transfer queue (paper §4): the sender records how long each tuple took to emit and to how
 * many children; the monitor thread calls {@link #sample()} every Δt to read the queue length and fold the
 * emit times into t<sub>e</sub>, the time per replica, averaged over every tuple of the interval and smoothed
 * across intervals.
 *
 * <p>Thread-safe. {@link #recordEmit(long, int)} allocates nothing; it takes the monitor's lock, which the
 * monitor thread holds only for a few field reads once per Δt.
 */
public final class QueueMonitor {
    private final IntSupplier queueLength;
    private final NanoClock clock;
    private final double alpha;

    private long windowEmitNanos;
    private long windowReplicas;
    private long windowTuples;
    private long totalTuples;

    private int previousLength;
    private int currentLength;
    private long sampleTimeNanos;
    private double emitNanosPerReplica = Double.NaN;

    /**
     * @param queueLength reads the transfer queue's current length
     * @param alpha       weight of the previous t_e estimate when a new interval is folded in, in [0, 1)
     */
    public QueueMonitor(IntSupplier queueLength, NanoClock clock, double alpha) {
        if (!(alpha >= 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be in [0, 1), got " + alpha);
        }
        this.queueLength = queueLength;
        this.clock = clock;
        this.alpha = alpha;
        this.sampleTimeNanos = clock.nanoTime();
    }

    /** One tuple took {@code emitNanos} to hand {@code replicas} copies to the children. */
    public synchronized void recordEmit(long emitNanos, int replicas) {
        if (replicas <= 0 || emitNanos < 0) {
            return;
        }
        windowEmitNanos += emitNanos;
        windowReplicas += replicas;
        windowTuples++;
    }

    /** Reads the queue length (l' becomes the previous sample) and folds this interval's emits into t_e. */
    public synchronized void sample() {
        int length = queueLength.getAsInt();
        previousLength = currentLength;
        currentLength = length;
        sampleTimeNanos = clock.nanoTime();
        if (windowReplicas > 0) {
            double observed = (double) windowEmitNanos / windowReplicas;
            emitNanosPerReplica = Double.isNaN(emitNanosPerReplica)
                    ? observed : alpha * emitNanosPerReplica + (1 - alpha) * observed;
            totalTuples += windowTuples;
            windowEmitNanos = 0;
            windowReplicas = 0;
            windowTuples = 0;
        }
    }

    /** l', the length at the sample before the last one. */
    public synchronized int previousLength() {
        return previousLength;
    }

    /** l, the length at the last sample. */
    public synchronized int currentLength() {
        return currentLength;
    }

    public synchronized long sampleTimeNanos() {
        return sampleTimeNanos;
    }

    /** t_e in nanoseconds, or NaN before the first interval with an emit. */
    public synchronized double emitNanosPerReplica() {
        return emitNanosPerReplica;
    }

    /** Tuples folded into t_e so far. */
    public synchronized long tuplesMeasured() {
        return totalTuples;
    }
}
