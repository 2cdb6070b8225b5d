package io.whale.rdma.spi;

/**
 * What a progress loop does after a turn, as a pure function of the work the turn did, the time and the pollers'
 * nearest deadline: run again at once, spin, then yield (a burst is answered within microseconds), then sleep. An
 * engine its transport's events can wake waits for one, bounded by the deadline and by {@code maxWaitNanos}, or parks
 * until the deadline when that is at most {@code maxParkNanos} away (a park is cheaper than a timer's signal); one that
 * cannot be woken parks for periods doubling up to {@code maxParkNanos}, polling (two idle engines polling every 100 µs
 * took a fifth of a core; waiting, a hundredth: {@code ProgressIdleBenchmark}). How many turns spin and yield is the
 * engine's setting: each turn is a progress call, which over UCX's TCP transport polls its sockets. Single-threaded;
 * times in {@link System#nanoTime} units.
 */
public final class ProgressIdler {
    static final long MIN_PARK_NANOS = 1_000;

    /** The next step of the loop; {@code nanos} is how long to park or wait, 0 otherwise. */
    public record Step(Kind kind, long nanos) {
        static final Step RUN = new Step(Kind.RUN, 0);
        static final Step SPIN = new Step(Kind.SPIN, 0);
        static final Step YIELD = new Step(Kind.YIELD, 0);
    }

    public enum Kind { RUN, SPIN, YIELD, PARK, WAIT }

    private final int spins;
    private final int yields;
    private final long maxParkNanos;
    private final long maxWaitNanos;
    private int idleTurns;
    private long parkNanos = MIN_PARK_NANOS;

    /**
     * @param spins idle turns that spin before the first yield, at least 0 ({@code RdmaConfig} checks it)
     * @param yields idle turns that yield before the first park or wait, at least 0
     * @param maxParkNanos the longest park between polls; for an engine that waits, the nearest deadline kept by a park
     * @param maxWaitNanos the longest wait for an event, 0 when the engine cannot wait for events (it polls then)
     */
    public ProgressIdler(int spins, int yields, long maxParkNanos, long maxWaitNanos) {
        this.spins = spins;
        this.yields = yields;
        this.maxParkNanos = Math.max(MIN_PARK_NANOS, maxParkNanos);
        this.maxWaitNanos = maxWaitNanos;
    }

    /**
     * After a turn that did {@code workDone} things at {@code nowNanos}, with the pollers' nearest deadline
     * {@code deadlineNanos} ({@link Poller#NO_DEADLINE} for none).
     */
    public Step next(int workDone, long nowNanos, long deadlineNanos) {
        if (workDone > 0) {
            idleTurns = 0;
            parkNanos = MIN_PARK_NANOS;
            return Step.RUN;
        }
        long untilDeadline = deadlineNanos == Poller.NO_DEADLINE ? Long.MAX_VALUE : deadlineNanos - nowNanos;
        if (untilDeadline <= 0) {
            return Step.RUN;
        }
        if (idleTurns < (long) spins + yields) {
            idleTurns++;
            return idleTurns <= spins ? Step.SPIN : Step.YIELD;
        }
        if (maxWaitNanos > 0) {
            return untilDeadline > maxParkNanos ? new Step(Kind.WAIT, Math.min(untilDeadline, maxWaitNanos))
                : new Step(Kind.PARK, untilDeadline);
        }
        long park = Math.min(parkNanos, untilDeadline);
        parkNanos = Math.min(maxParkNanos, parkNanos * 2);
        return new Step(Kind.PARK, park);
    }
}
