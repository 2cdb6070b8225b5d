package io.whale.multicast.monitor;

import java.util.ArrayDeque;

/**
 * The t_e samples of the last monitor intervals, held back while a child of the source owes credit and has returned
 * none: if it turns out stalled, the source's pace in those intervals was the child's, not its own, and the samples
 * are dropped. Pure: times are passed in. Holds at most as many samples as there are intervals in a stall.
 */
public final class EmitTimeSamples {
    /** Where released samples go: {@code frames} frames took {@code nanos}. */
    public interface Sink {
        void recordEmit(long nanos, int frames);
    }

    private record Sample(long tickNanos, long nanos, int frames) {
    }

    private final ArrayDeque<Sample> held = new ArrayDeque<>();

    /** The sample of the interval that ended at {@code tickNanos}. */
    public void add(long tickNanos, long nanos, int frames) {
        held.addLast(new Sample(tickNanos, nanos, frames));
    }

    /** Drops the samples of the intervals that ended after {@code sinceNanos}. */
    public void dropAfter(long sinceNanos) {
        while (!held.isEmpty() && held.peekLast().tickNanos() > sinceNanos) {
            held.pollLast();
        }
    }

    /** Hands on, oldest first, the samples of the intervals that ended at or before {@code upToNanos}. */
    public void release(long upToNanos, Sink sink) {
        while (!held.isEmpty() && held.peekFirst().tickNanos() <= upToNanos) {
            Sample sample = held.pollFirst();
            sink.recordEmit(sample.nanos(), sample.frames());
        }
    }
}
