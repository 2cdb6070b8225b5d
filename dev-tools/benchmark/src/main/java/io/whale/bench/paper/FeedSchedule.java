package io.whale.bench.paper;

import io.whale.bench.PoissonArrivals;
import io.whale.bench.RateSearch;
import io.whale.examples.smoke.RateSchedule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * What the Kafka feed of one run offers the topology, phase by phase; pure, with time, the consumer group's committed
 * offset and the topology's reported latency passed in. Each {@link #tick} says how many records to produce now.
 * <ol>
 *   <li>{@code starting}: a standing backlog of {@code backlog} records, until the topology has committed offsets and
 *       the caller has released the feed (the driver waits for the workers' JIT and shapes the links first);</li>
 *   <li>{@code capacity}: the backlog topped up (the spout never waits for data), warm-up then measured, window after
 *       window while the drain rate still rises: the rate the topology drains at in the last window is its capacity C.
 *       A topology's drain rate can climb for tens of seconds after its warm-up (on a host of a quarter of a core its
 *       JIT compiles the busy path late and WOC's sized windows grow with what they deliver: 20 to 450 records/s over
 *       25 s in one quick run), so one window after a fixed
 *       warm-up may read the climb; the phase measures again while a window drained more than {@value #CHANGE_SHARE}
 *       above the one before — or below it, as a window does whose commits a failed record held back —, at most
 *       {@value #CAPACITY_WINDOWS} windows. Offsets are committed a while after their
 *       records were read, so the backlog kept is {@code backlog} plus two seconds of what the phase drained so far;</li>
 *   <li>{@code drain}: nothing produced until the committed offset reaches what was produced; after every measured
 *       phase but the last. It gives up after twice what the backlog takes at the capacity, but at least a warm-up and a
 *       measurement and at most {@value #DRAIN_LIMIT_MEASURES} times that (a warm-up and a measurement before the
 *       capacity is known): a probe after a drain that gave up does not count as keeping up, and runs again at its
 *       rate after another drain ({@link RateSearch#undrained});</li>
 *   <li>{@code search}: the probes of a {@link RateSearch}, each a Poisson process at its share of C, settled then
 *       measured, with a drain after each: a probe kept up when it started behind a fully drained backlog (so that
 *       nothing it consumed was an earlier phase's catch-up), the backlog grew by less than
 *       {@value RateSearch#FLAT_BACKLOG_SHARE} of the offered rate (committed within 5 % of offered) and the latency's 99th
 *       percentile stayed within the bound. The rate offered to the highest probe that kept up is the sustainable rate
 *       ({@link SustainedRate#of}; left out with no probe);</li>
 *   <li>{@code common}: a Poisson process at the common rate, settled then measured (left out when the common rate is 0;
 *       a negative common rate -s is the share s of {@link SustainedRate#basis}: the first system of a comparison sets
 *       the rate the others are measured at).</li>
 * </ol>
 * A rate-step schedule ({@link #steps}, Figs. 23–24) is {@code starting}, {@code drain}, then {@code steps}: each step of
 * its {@link RateSchedule} a Poisson process at the step's rate, measured whole from the instant it begins (a window per
 * step: what happens right after a step is what it shows), then done.
 * The paced phases settle for at most {@value #SETTLE_SECONDS} s, not a whole warm-up: each starts behind a drained
 * backlog, with the topology's JVMs warmed by the capacity phase. A measured phase is a {@link Window}.
 */
final class FeedSchedule {
    static final long SETTLE_SECONDS = 5;
    /** A drain waits at most this many warm-ups and measurements, however slowly the topology drains. */
    static final int DRAIN_LIMIT_MEASURES = 4;
    /** The capacity phase measures again while a window drained more than this share above or below the window before it. */
    static final double CHANGE_SHARE = 0.10;
    /** The capacity phase's windows at most (the last is the capacity, rising or not). */
    static final int CAPACITY_WINDOWS = 8;

    enum Phase {
        STARTING, CAPACITY, DRAIN, SEARCH, COMMON, STEPS, DONE;

        String label() {
            return name().toLowerCase();
        }
    }

    /**
     * The longest a schedule of these lengths keeps one {@link Mark} (no change of phase, of measuring, of window or of
     * rate step: no event from the feed), however slowly the topology drains and however many probes its search
     * takes: a drain at its limit, or a rate step. A warm-up, a settle and a measurement are each shorter than a drain's
     * limit, and a drain with no capacity known yet (a rate-step run's start) waits one warm-up and measurement.
     */
    static Duration longestStill(long warmupSeconds, long measureSeconds, long stepSeconds) {
        return Duration.ofSeconds(Math.max(DRAIN_LIMIT_MEASURES * (warmupSeconds + measureSeconds), stepSeconds));
    }

    /** The 99th percentile (ms) of the latencies the topology reported between two instants (wall clock); negative: none. */
    @FunctionalInterface
    interface Latency {
        double p99Millis(long startMillis, long endMillis);
    }

    /**
     * One measured phase: its edges' time, committed offset and records produced; the latency's 99th percentile over it
     * (negative: no result reported), whether the backlog before it was fully drained (always for a rate step, whose
     * backlog is the step before's) and whether it kept up (always false for the capacity phase, which is not paced).
     */
    record Window(Phase phase, double ratePerSecond, long startMillis, long endMillis, long committedAtStart, long committedAtEnd,
                  long producedAtStart, long producedAtEnd, double p99Millis, boolean drainedBefore, boolean keptUp) implements SustainedRate {
        double seconds() {
            return (endMillis - startMillis) / 1e3;
        }

        @Override
        public double offeredPerSecond() {
            return (producedAtEnd - producedAtStart) / seconds();
        }

        double consumedPerSecond() {
            return (committedAtEnd - committedAtStart) / seconds();
        }

        /** How fast the records produced and not yet committed grew (negative: shrank). */
        double backlogGrowthPerSecond() {
            return ((producedAtEnd - committedAtEnd) - (producedAtStart - committedAtStart)) / seconds();
        }

        boolean backlogFlat() {
            return backlogGrowthPerSecond() <= RateSearch.FLAT_BACKLOG_SHARE * offeredPerSecond();
        }

        /** Whether it kept up by {@link RateSearch#keptUp}, given its latency's 99th percentile. */
        boolean keptUp(double p99Millis, double p99BoundMillis) {
            return RateSearch.keptUp(offeredPerSecond(), backlogGrowthPerSecond(), p99Millis, p99BoundMillis);
        }

        Window withKeptUp() {
            return new Window(phase, ratePerSecond, startMillis, endMillis, committedAtStart, committedAtEnd, producedAtStart,
                producedAtEnd, p99Millis, drainedBefore, true);
        }
    }

    private final long backlog;
    private final long warmupNanos;
    private final long settleNanos;
    private final long measureNanos;
    private final RateSearch search;
    private final double p99BoundMillis;
    private final double commonRate;
    private final Latency latency;
    private final SplittableRandom random;
    private final RateSchedule steps;
    private final List<Window> windows = new ArrayList<>();

    private Phase phase = Phase.STARTING;
    private boolean measuring;
    private long phaseStartNanos;
    private long committedAtPhaseStart;
    private long measureStartNanos;
    private long measureStartMillis;
    private long committedAtMeasureStart;
    private long producedAtMeasureStart;
    private double rate;
    private double share;
    private PoissonArrivals arrivals;
    private long produced;
    private boolean drainedBefore;
    private long drainLimitNanos;
    private long stepsStartNanos;
    private int step = -1;

    /**
     * @param backlog        records kept waiting while the capacity is measured: more than the spout holds in flight
     * @param probes         the search's probes at most; 0 leaves the search out
     * @param p99BoundMillis the latency's 99th percentile a probe may show and still keep up
     * @param commonRate     the common phase's rate; 0 leaves that phase out; -s: the share s of the sustainable rate
     * @param latency        the topology's reported latency over a window
     */
    FeedSchedule(long backlog, long warmupSeconds, long measureSeconds, int probes, double p99BoundMillis, double commonRate,
                 long seed, Latency latency) {
        this(backlog, warmupSeconds, measureSeconds, probes, p99BoundMillis, commonRate, seed, latency, null);
    }

    /**
     * A rate-step schedule: the start's backlog drained (for at most {@code drainSeconds}), then {@code steps}; a step
     * kept up when its backlog stayed flat and its 99th percentile within {@code p99BoundMillis}.
     */
    static FeedSchedule steps(long backlog, long drainSeconds, RateSchedule steps, double p99BoundMillis, long seed, Latency latency) {
        if (steps.lengthNanos() == Long.MAX_VALUE) {
            throw new IllegalArgumentException("rate steps " + steps + " must all have a length: the feed ends after the last");
        }
        return new FeedSchedule(backlog, 0, drainSeconds, 0, p99BoundMillis, 0, seed, latency, steps);
    }

    private FeedSchedule(long backlog, long warmupSeconds, long measureSeconds, int probes, double p99BoundMillis, double commonRate,
                         long seed, Latency latency, RateSchedule steps) {
        if (backlog < 1 || warmupSeconds < 0 || measureSeconds < 1 || probes < 0 || !(p99BoundMillis > 0) || commonRate < -1) {
            throw new IllegalArgumentException("backlog " + backlog + ", warm-up " + warmupSeconds + " s, measure " + measureSeconds
                + " s, probes " + probes + ", p99 bound " + p99BoundMillis + " ms, common rate " + commonRate);
        }
        this.backlog = backlog;
        this.warmupNanos = TimeUnit.SECONDS.toNanos(warmupSeconds);
        this.settleNanos = TimeUnit.SECONDS.toNanos(Math.min(warmupSeconds, SETTLE_SECONDS));
        this.measureNanos = TimeUnit.SECONDS.toNanos(measureSeconds);
        this.search = new RateSearch(probes);
        this.p99BoundMillis = p99BoundMillis;
        this.commonRate = commonRate;
        this.latency = latency;
        this.random = new SplittableRandom(seed);
        this.steps = steps;
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
                    enter(steps == null ? Phase.CAPACITY : Phase.DRAIN, 0, nowNanos, committed);
                }
            }
            case CAPACITY, SEARCH, COMMON -> measure(nowNanos, nowMillis, committed);
            case STEPS -> step(nowNanos, nowMillis, committed);
            case DRAIN -> {
                if (committed >= produced || nowNanos - phaseStartNanos >= drainLimitNanos) {
                    if (steps == null) {
                        afterPhase(Phase.DRAIN, nowNanos, committed);
                    } else {
                        startSteps(nowNanos, nowMillis, committed);
                    }
                }
            }
            case DONE -> {
            }
        }
        long toProduce = switch (phase) {
            case STARTING -> Math.max(0, backlog - (produced - committed));
            case CAPACITY -> Math.max(0, backlog + drainedInTwoSeconds(nowNanos, committed) - (produced - committed));
            case SEARCH, COMMON, STEPS -> due(nowNanos);
            case DRAIN, DONE -> 0;
        };
        produced += toProduce;
        return toProduce;
    }

    Phase phase() {
        return phase;
    }

    /** The step of a rate-step schedule under way, from 0; -1 before the first and once done. */
    int step() {
        return phase == Phase.STEPS ? step : -1;
    }

    /** The rate of the current paced phase (0 outside one). */
    double rate() {
        return rate;
    }

    /** The measured windows so far, in order. */
    List<Window> windows() {
        return List.copyOf(windows);
    }

    /** The capacity phase's last window, the one C is read from. */
    Optional<Window> capacityWindow() {
        List<Window> capacity = windows(Phase.CAPACITY);
        return capacity.isEmpty() ? Optional.empty() : Optional.of(capacity.get(capacity.size() - 1));
    }

    /**
     * Where the schedule stands: the feed writes an event whenever this changes ({@link #longestStill} bounds how long
     * it stays the same), a new window counting as a change even in the same phase.
     */
    record Mark(Phase phase, boolean measuring, int step, int windows) {
    }

    Mark mark() {
        return new Mark(phase, measuring, step(), windows.size());
    }

    boolean measuring() {
        return measuring;
    }

    /** The windows of one phase, in order. */
    List<Window> windows(Phase p) {
        return windows.stream().filter(w -> w.phase() == p).toList();
    }

    /** {@link SustainedRate#of} the search's probes (NaN when none kept up); the capacity without a search. */
    double sustainedPerSecond() {
        return SustainedRate.of(windows(Phase.SEARCH), capacityPerSecond());
    }

    private double capacityPerSecond() {
        return capacityWindow().map(Window::consumedPerSecond).orElse(0.0);
    }

    private void measure(long nowNanos, long nowMillis, long committed) {
        long settle = phase == Phase.CAPACITY ? warmupNanos : settleNanos;
        if (!measuring && nowNanos - phaseStartNanos >= settle) {
            openWindow(nowNanos, nowMillis, committed);
        } else if (measuring && nowNanos - measureStartNanos >= measureNanos) {
            double p99 = latency.p99Millis(measureStartMillis, nowMillis);
            Window w = new Window(phase, rate, measureStartMillis, nowMillis, committedAtMeasureStart, committed,
                producedAtMeasureStart, produced, p99, drainedBefore, false);
            boolean keptUp = phase != Phase.CAPACITY && drainedBefore && w.keptUp(p99, p99BoundMillis);
            windows.add(keptUp ? w.withKeptUp() : w);
            measuring = false;
            if (phase == Phase.SEARCH) {
                if (drainedBefore) {
                    search.record(share, keptUp);
                } else {
                    search.undrained(share);
                }
            }
            if (phase == Phase.CAPACITY && capacityStillChanging()) {
                openWindow(nowNanos, nowMillis, committed);
            } else {
                afterPhase(phase, nowNanos, committed);
            }
        }
    }

    private void openWindow(long nowNanos, long nowMillis, long committed) {
        measuring = true;
        measureStartNanos = nowNanos;
        measureStartMillis = nowMillis;
        committedAtMeasureStart = committed;
        producedAtMeasureStart = produced;
    }

    /**
     * Whether the capacity phase measures another window: one alone cannot tell, nor one still above the one before, nor
     * one far below it. Offsets are committed in order, so a record that failed holds back the commits of every record
     * read after it until its replay is acked, and a window then reads a dip, the next the catch-up: stock Storm
     * committed 87 records/s in such a window while its sink counted 411 results/s, and that window set its probes.
     */
    private boolean capacityStillChanging() {
        List<Window> measured = windows(Phase.CAPACITY);
        int n = measured.size();
        if (n >= CAPACITY_WINDOWS) {
            return false;
        }
        if (n < 2) {
            return true;
        }
        double last = measured.get(n - 1).consumedPerSecond();
        double before = measured.get(n - 2).consumedPerSecond();
        return last > (1 + CHANGE_SHARE) * before || last < (1 - CHANGE_SHARE) * before;
    }

    /** Closes the step that has ended, if one has, and opens the next, or ends the schedule after the last. */
    private void step(long nowNanos, long nowMillis, long committed) {
        int at = steps.stepAt(nowNanos - stepsStartNanos);
        if (at == step) {
            return;
        }
        double p99 = latency.p99Millis(measureStartMillis, nowMillis);
        Window w = new Window(Phase.STEPS, rate, measureStartMillis, nowMillis, committedAtMeasureStart, committed,
            producedAtMeasureStart, produced, p99, true, false);
        windows.add(w.keptUp(p99, p99BoundMillis) ? w.withKeptUp() : w);
        if (at >= steps.steps()) {
            measuring = false;
            enter(Phase.DONE, 0, nowNanos, committed);
        } else {
            openStep(at, nowNanos, nowMillis, committed);
        }
    }

    private void startSteps(long nowNanos, long nowMillis, long committed) {
        enter(Phase.STEPS, 0, nowNanos, committed);
        stepsStartNanos = nowNanos;
        openStep(0, nowNanos, nowMillis, committed);
    }

    private void openStep(int at, long nowNanos, long nowMillis, long committed) {
        step = at;
        rate = steps.rate(at);
        arrivals = new PoissonArrivals(rate, stepsStartNanos + steps.stepStartNanos(at), random);
        openWindow(nowNanos, nowMillis, committed);
    }

    private void afterPhase(Phase ended, long nowNanos, long committed) {
        double capacity = capacityPerSecond();
        OptionalDouble probe = search.next();
        if (ended == Phase.CAPACITY || (ended == Phase.SEARCH && (probe.isPresent() || commonRate != 0))) {
            enter(Phase.DRAIN, 0, nowNanos, committed);
        } else if (ended == Phase.DRAIN && probe.isPresent()) {
            share = probe.getAsDouble();
            enterPaced(Phase.SEARCH, share * capacity, nowNanos, committed);
        } else if (ended != Phase.COMMON && commonRate != 0) {
            enterPaced(Phase.COMMON, commonRate > 0 ? commonRate : -commonRate * SustainedRate.basis(windows(Phase.SEARCH),
                capacityPerSecond()), nowNanos, committed);
        } else {
            enter(Phase.DONE, 0, nowNanos, committed);
        }
    }

    private void enterPaced(Phase next, double ratePerSecond, long nowNanos, long committed) {
        if (ratePerSecond <= 0) {
            enter(Phase.DONE, 0, nowNanos, committed);
            return;
        }
        // a drain ends when everything produced is committed, or when it timed out with a backlog left
        drainedBefore = committed >= produced;
        enter(next, ratePerSecond, nowNanos, committed);
        arrivals = new PoissonArrivals(ratePerSecond, nowNanos, random);
    }

    private void enter(Phase next, double ratePerSecond, long nowNanos, long committed) {
        if (next == Phase.DRAIN) {
            drainLimitNanos = drainLimitNanos(committed);
        }
        phase = next;
        rate = ratePerSecond;
        phaseStartNanos = nowNanos;
        committedAtPhaseStart = committed;
    }

    /** Twice what the backlog now takes at the capacity, within one to {@link #DRAIN_LIMIT_MEASURES} warm-ups and measurements. */
    private long drainLimitNanos(long committed) {
        long least = warmupNanos + measureNanos;
        double capacity = capacityPerSecond();
        if (capacity <= 0) {
            return least;
        }
        double twiceTheBacklog = 2e9 * (produced - committed) / capacity;
        return (long) Math.min(DRAIN_LIMIT_MEASURES * least, Math.max(least, twiceTheBacklog));
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
