package io.whale.bench.paper;

import io.whale.bench.PoissonArrivals;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * What the Kafka feed of one run offers the topology, phase by phase; pure, with time and the consumer group's
 * committed offset passed in. Each {@link #tick} says how many records to produce now.
 * <ol>
 *   <li>{@code starting}: a standing backlog of {@code backlog} records, until the topology has committed offsets and
 *       the caller has released the feed (the driver shapes the links first);</li>
 *   <li>{@code capacity}: the backlog topped up (the spout never waits for data), warm-up then measured: the rate the
 *       topology drains is its capacity C. Offsets are committed a while after their records were read, so the
 *       backlog kept is {@code backlog} plus two seconds of what the phase drained so far;</li>
 *   <li>{@code drain}: nothing produced until the committed offset reaches what was produced (at most a warm-up and a
 *       measurement long);</li>
 *   <li>{@code own}: a Poisson process at {@code load} × C, warm-up then measured (left out when the load is 0);</li>
 *   <li>{@code common}: a Poisson process at the common rate, warm-up then measured (left out when the common rate is 0;
 *       a negative common rate -s is the share s of C: the first system of a comparison sets the rate the others
 *       are measured at).</li>
 * </ol>
 * A measured phase is a {@link Window}: its edges' time, committed offset and records produced.
 */
final class FeedSchedule {
    enum Phase {
        STARTING, CAPACITY, DRAIN, OWN, COMMON, DONE;

        String label() {
            return name().toLowerCase();
        }
    }

    /** One measured phase: offered, consumed and backlog over it. */
    record Window(Phase phase, double ratePerSecond, long startMillis, long endMillis, long committedAtStart, long committedAtEnd,
                  long producedAtStart, long producedAtEnd) {
        double seconds() {
            return (endMillis - startMillis) / 1e3;
        }

        double offeredPerSecond() {
            return (producedAtEnd - producedAtStart) / seconds();
        }

        double consumedPerSecond() {
            return (committedAtEnd - committedAtStart) / seconds();
        }

        /** How fast the records produced and not yet committed grew (negative: shrank). */
        double backlogGrowthPerSecond() {
            return ((producedAtEnd - committedAtEnd) - (producedAtStart - committedAtStart)) / seconds();
        }
    }

    private final long backlog;
    private final long warmupNanos;
    private final long measureNanos;
    private final double load;
    private final double commonRate;
    private final SplittableRandom random;
    private final List<Window> windows = new ArrayList<>();

    private Phase phase = Phase.STARTING;
    private boolean measuring;
    private long phaseStartNanos;
    private long committedAtPhaseStart;
    private long measureStartMillis;
    private long committedAtMeasureStart;
    private long producedAtMeasureStart;
    private double rate;
    private PoissonArrivals arrivals;
    private long produced;

    /**
     * @param backlog    records kept waiting while the capacity is measured: more than the spout holds in flight
     * @param load       the own phase's rate as a share of the measured capacity; 0 leaves that phase out
     * @param commonRate the common phase's rate; 0 leaves that phase out; -s: the share s of the measured capacity
     */
    FeedSchedule(long backlog, long warmupSeconds, long measureSeconds, double load, double commonRate, long seed) {
        if (backlog < 1 || warmupSeconds < 0 || measureSeconds < 1 || load < 0 || commonRate < -1) {
            throw new IllegalArgumentException("backlog " + backlog + ", warm-up " + warmupSeconds + " s, measure " + measureSeconds
                + " s, load " + load + ", common rate " + commonRate);
        }
        this.backlog = backlog;
        this.warmupNanos = TimeUnit.SECONDS.toNanos(warmupSeconds);
        this.measureNanos = TimeUnit.SECONDS.toNanos(measureSeconds);
        this.load = load;
        this.commonRate = commonRate;
        this.random = new SplittableRandom(seed);
    }

    /**
     * Advances to {@code nowNanos} (monotonic; {@code nowMillis} the same instant on the wall clock, for the windows)
     * given the committed offset now and whether the start is released; returns how many records to produce now (the
     * caller produces them).
     */
    long tick(long nowNanos, long nowMillis, long committed, boolean released) {
        switch (phase) {
            case STARTING -> {
                if (committed > 0 && released) {
                    enter(Phase.CAPACITY, 0, nowNanos, committed);
                }
            }
            case CAPACITY, OWN, COMMON -> measure(nowNanos, nowMillis, committed);
            case DRAIN -> {
                if (committed >= produced || nowNanos - phaseStartNanos >= warmupNanos + measureNanos) {
                    afterPhase(Phase.DRAIN, nowNanos, committed);
                }
            }
            case DONE -> {
            }
        }
        long toProduce = switch (phase) {
            case STARTING -> Math.max(0, backlog - (produced - committed));
            case CAPACITY -> Math.max(0, backlog + drainedInTwoSeconds(nowNanos, committed) - (produced - committed));
            case OWN, COMMON -> due(nowNanos);
            case DRAIN, DONE -> 0;
        };
        produced += toProduce;
        return toProduce;
    }

    Phase phase() {
        return phase;
    }

    /** The rate of the current paced phase (0 outside one). */
    double rate() {
        return rate;
    }

    /** The measured windows so far, in order. */
    List<Window> windows() {
        return List.copyOf(windows);
    }

    Optional<Window> window(Phase p) {
        return windows.stream().filter(w -> w.phase() == p).findFirst();
    }

    boolean measuring() {
        return measuring;
    }

    private void measure(long nowNanos, long nowMillis, long committed) {
        if (!measuring && nowNanos - phaseStartNanos >= warmupNanos) {
            measuring = true;
            measureStartMillis = nowMillis;
            committedAtMeasureStart = committed;
            producedAtMeasureStart = produced;
        } else if (measuring && nowNanos - phaseStartNanos >= warmupNanos + measureNanos) {
            windows.add(new Window(phase, rate, measureStartMillis, nowMillis, committedAtMeasureStart, committed,
                producedAtMeasureStart, produced));
            measuring = false;
            afterPhase(phase, nowNanos, committed);
        }
    }

    private void afterPhase(Phase ended, long nowNanos, long committed) {
        double capacity = windows.get(0).consumedPerSecond();
        if (ended == Phase.CAPACITY) {
            enter(Phase.DRAIN, 0, nowNanos, committed);
        } else if (ended == Phase.DRAIN && load > 0) {
            enterPaced(Phase.OWN, load * capacity, nowNanos, committed);
        } else if (ended != Phase.COMMON && commonRate != 0) {
            enterPaced(Phase.COMMON, commonRate > 0 ? commonRate : -commonRate * capacity, nowNanos, committed);
        } else {
            enter(Phase.DONE, 0, nowNanos, committed);
        }
    }

    private void enterPaced(Phase next, double ratePerSecond, long nowNanos, long committed) {
        if (ratePerSecond <= 0) {
            enter(Phase.DONE, 0, nowNanos, committed);
            return;
        }
        enter(next, ratePerSecond, nowNanos, committed);
        arrivals = new PoissonArrivals(ratePerSecond, nowNanos, random);
    }

    private void enter(Phase next, double ratePerSecond, long nowNanos, long committed) {
        phase = next;
        rate = ratePerSecond;
        phaseStartNanos = nowNanos;
        committedAtPhaseStart = committed;
    }

    private long drainedInTwoSeconds(long nowNanos, long committed) {
        long elapsed = nowNanos - phaseStartNanos;
        return elapsed <= 0 ? 0 : (committed - committedAtPhaseStart) * TimeUnit.SECONDS.toNanos(2) / elapsed;
    }

    private long due(long nowNanos) {
        long count = 0;
        while (arrivals.nextDue(nowNanos) != Long.MIN_VALUE) {
            count++;
        }
        return count;
    }
}
