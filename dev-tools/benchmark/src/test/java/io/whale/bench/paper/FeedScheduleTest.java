package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.examples.smoke.RateSchedule;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;

class FeedScheduleTest {
    private static final long TICK_MS = 10;

    private static final FeedSchedule.Latency FAST = (start, end) -> 20;

    /** A topology that commits what it was offered at most {@code perSecond}, a tick behind; time in ticks of 10 ms. */
    private static final class Consumer {
        double perSecond;
        long produced;
        double committed;
        long nowMillis;

        Consumer(double perSecond) {
            this.perSecond = perSecond;
        }

        long tick(FeedSchedule schedule, boolean released) {
            nowMillis += TICK_MS;
            committed = Math.min(produced, committed + perSecond * TICK_MS / 1e3);
            long produce = schedule.tick(TimeUnit.MILLISECONDS.toNanos(nowMillis), nowMillis, (long) committed, released);
            produced += produce;
            return produce;
        }

        /** Runs to the drain after the capacity, then at {@code drainPerSecond} to the first probe; the drain's length in ms. */
        long drainMillis(FeedSchedule schedule, double drainPerSecond) {
            runUntil(schedule, FeedSchedule.Phase.DRAIN);
            long drainStart = nowMillis;
            perSecond = drainPerSecond;
            runUntil(schedule, FeedSchedule.Phase.SEARCH);
            return nowMillis - drainStart;
        }

        /** Releases the feed, then drains at {@code perSecond} of the ms since the release until the schedule's drain. */
        void runReleasedToTheDrain(FeedSchedule schedule, LongToDoubleFunction perSecond) {
            tick(schedule, true);
            long released = nowMillis;
            while (schedule.phase() != FeedSchedule.Phase.DRAIN) {
                this.perSecond = perSecond.applyAsDouble(nowMillis - released);
                tick(schedule, true);
            }
        }

        void runUntil(FeedSchedule schedule, FeedSchedule.Phase phase) {
            for (int i = 0; i < 1_000_000 && schedule.phase() != phase; i++) {
                tick(schedule, true);
            }
            assertEquals(phase, schedule.phase());
        }
    }

    @Test
    void shouldKeepABacklogUntilReleasedAndMeasureTheRateTheTopologyDrainsItAt() {
        FeedSchedule schedule = new FeedSchedule(3_000, 2, 10, 0, 1_000, 0, 1, FAST);
        Consumer topology = new Consumer(500);
        assertEquals(3_000, topology.tick(schedule, false), "the whole backlog at once");
        for (int i = 0; i < 500; i++) {
            topology.tick(schedule, false);
        }
        assertEquals(FeedSchedule.Phase.STARTING, schedule.phase(), "not released: still starting though it consumes");
        assertEquals(3_000, topology.produced - (long) topology.committed, 1, "the backlog topped up");

        topology.runUntil(schedule, FeedSchedule.Phase.DRAIN);
        FeedSchedule.Window capacity = schedule.capacityWindow().orElseThrow();
        assertEquals(500, capacity.consumedPerSecond(), 5);
        assertEquals(10, capacity.seconds(), 0.02);
        assertFalse(capacity.keptUp(), "the capacity phase is not paced: nothing to keep up with");
        assertTrue(topology.produced - topology.committed > 3_000, "two seconds of drained records kept beyond the base backlog");
    }

    @Test
    void shouldMeasureTheCapacityAgainWhileTheDrainRateStillRisesAndReadItFromTheLastWindow() {
        // warm-up 2 s, windows of 10 s; the topology drains 100/s for its first 12 s after the release (its JIT still
        // compiling), then 500/s: the first window reads the climb, the second the rise, the third that it stopped
        FeedSchedule schedule = new FeedSchedule(3_000, 2, 10, 1, 1_000, 0, 3, FAST);
        Consumer topology = new Consumer(100);
        topology.runReleasedToTheDrain(schedule, since -> since < 12_000 ? 100 : 500);

        List<FeedSchedule.Window> windows = schedule.windows(FeedSchedule.Phase.CAPACITY);
        assertEquals(List.of(100L, 500L, 500L), windows.stream().map(w -> Math.round(w.consumedPerSecond() / 10) * 10).toList());
        assertEquals(windows.get(0).endMillis(), windows.get(1).startMillis(), "back to back, no second warm-up");
        assertEquals(windows.get(2), schedule.capacityWindow().orElseThrow());
        topology.runUntil(schedule, FeedSchedule.Phase.SEARCH);
        assertEquals(450, schedule.rate(), 5, "the probe at 0.9 of the last window's rate, not of the climb's");
    }

    @Test
    void shouldTakeTheLastCapacityWindowWhenTheDrainRateRisesThroughEveryWindow() {
        FeedSchedule schedule = new FeedSchedule(3_000, 1, 2, 0, 1_000, 0, 3, FAST);
        Consumer topology = new Consumer(100);
        for (int i = 0; i < 100_000 && schedule.phase() != FeedSchedule.Phase.DRAIN; i++) {
            topology.perSecond = 100 + topology.nowMillis / 10.0; // 100/s more every second, without end
            topology.tick(schedule, true);
        }
        List<FeedSchedule.Window> windows = schedule.windows(FeedSchedule.Phase.CAPACITY);
        assertEquals(FeedSchedule.CAPACITY_WINDOWS, windows.size(), "at most so many windows, however long it climbs");
        assertEquals(windows.get(windows.size() - 1).consumedPerSecond(), schedule.sustainedPerSecond(),
            "no search: the capacity, read from the last window");
    }

    @Test
    void shouldMeasureTheCapacityAgainWhenAWindowReadsTheDipOfCommitsHeldBackByAFailedRecord() {
        // warm-up 2 s, windows of 10 s; the topology drains 500/s, but from 14 s to 22 s after the release a failed
        // record holds back every commit until its replay is acked, and the commits catch up by 1,500/s for 4 s
        FeedSchedule schedule = new FeedSchedule(3_000, 2, 10, 1, 1_000, 0, 3, FAST);
        Consumer topology = new Consumer(500);
        topology.runReleasedToTheDrain(schedule,
            since -> since >= 14_000 && since < 22_000 ? 0 : since >= 22_000 && since < 26_000 ? 1_500 : 500);

        List<FeedSchedule.Window> windows = schedule.windows(FeedSchedule.Phase.CAPACITY);
        assertEquals(List.of(500L, 100L, 900L, 500L, 500L), windows.stream().map(w -> Math.round(w.consumedPerSecond() / 10) * 10).toList());
        topology.runUntil(schedule, FeedSchedule.Phase.SEARCH);
        assertEquals(450, schedule.rate(), 5, "the probe at 0.9 of the rate the commits settled at, not of the dip's");
    }

    @Test
    void shouldMeasureTwoCapacityWindowsOfATopologyThatDrainsSteadily() {
        FeedSchedule schedule = new FeedSchedule(3_000, 2, 10, 0, 1_000, 0, 3, FAST);
        new Consumer(500).runUntil(schedule, FeedSchedule.Phase.DONE);
        assertEquals(2, schedule.windows(FeedSchedule.Phase.CAPACITY).size(), "one window alone cannot tell that the rate stopped rising");
    }

    @Test
    void shouldProbeAtNineTenthsOfTheCapacityBehindADrainedBacklogAndTakeTheRateOfferedWhenTheTopologyKeepsUp() {
        FeedSchedule schedule = new FeedSchedule(3_000, 8, 20, 1, 1_000, 0, 7, FAST);
        Consumer topology = new Consumer(500);
        topology.runUntil(schedule, FeedSchedule.Phase.SEARCH);
        assertTrue(topology.produced - topology.committed <= 2, "the probe starts behind a drained backlog (its first arrival aside)");
        long probeStart = topology.nowMillis;

        topology.runUntil(schedule, FeedSchedule.Phase.DONE);
        List<FeedSchedule.Window> probes = schedule.windows(FeedSchedule.Phase.SEARCH);
        assertEquals(3, probes.size(), "one probe allowed; it kept up, so one more went above it (as many again at most), "
            + "which fell behind 22 % above it, then one halfway");
        assertEquals(550, probes.get(1).ratePerSecond(), 5, "1.1 of the capacity");
        assertFalse(probes.get(1).keptUp(), "above the 500/s the topology consumes: the rate is bounded from above");
        assertEquals(500, probes.get(2).ratePerSecond(), 5, "1.0 of the capacity: the bracket halved");
        FeedSchedule.Window probe = probes.get(0);
        assertEquals(450, probe.ratePerSecond(), 5);
        assertEquals(450, probe.offeredPerSecond(), 450 * 0.1, "Poisson at 450/s over 20 s");
        assertEquals(FeedSchedule.SETTLE_SECONDS * 1_000, probe.startMillis() - probeStart, 10, "settled 5 s, not the 8-s warm-up");
        assertTrue(probe.drainedBefore() && probe.keptUp(), "a topology faster than the offered rate keeps up");
        assertEquals(20, probe.p99Millis());
        assertTrue(probes.get(2).keptUp(), "at 1.0 C Poisson arrivals keep up with 500/s consumed: " + probes.get(2));
        assertEquals(probes.get(2).offeredPerSecond(), schedule.sustainedPerSecond(), "the rate offered to the highest probe that kept up, "
            + "not what was committed");
        assertTrue(schedule.windows(FeedSchedule.Phase.COMMON).stream().findFirst().isEmpty(), "no common rate given: no common phase");
    }

    /** A search of three probes after a capacity of 500/s, the topology consuming at most {@code perSecond} from then on. */
    private static FeedSchedule searchedWhileConsuming(double perSecond) {
        FeedSchedule schedule = new FeedSchedule(3_000, 2, 10, 3, 1_000, 0, 5, FAST);
        Consumer topology = new Consumer(500);
        topology.runUntil(schedule, FeedSchedule.Phase.DRAIN);
        topology.perSecond = perSecond;
        topology.runUntil(schedule, FeedSchedule.Phase.DONE);
        return schedule;
    }

    @Test
    void shouldProbeLowerWhileTheTopologyFallsBehindAndTakeTheHighestRateItKeptUpWith() {
        FeedSchedule schedule = searchedWhileConsuming(320);
        List<FeedSchedule.Window> probes = schedule.windows(FeedSchedule.Phase.SEARCH);
        assertEquals(List.of(450.0, 350.0, 250.0, 300.0, 325.0), probes.stream().map(w -> (double) Math.round(w.ratePerSecond())).toList(),
            "0.9 and 0.7 C fell behind, 0.5 C kept up, then the bracket halved until what fell behind lies within 15 % above");
        assertEquals(List.of(false, false, true, true, true), probes.stream().map(FeedSchedule.Window::keptUp).toList());
        assertEquals(320, probes.get(0).consumedPerSecond(), 10, "falling behind, it consumes what it can");
        assertEquals(probes.get(4).offeredPerSecond(), schedule.sustainedPerSecond());
        assertEquals(325, schedule.sustainedPerSecond(), 25);
    }

    @Test
    void shouldProbeAboveTheCapacityWhileTheTopologyKeepsUpThenHalveTheGap() {
        FeedSchedule schedule = searchedWhileConsuming(510);
        List<FeedSchedule.Window> probes = schedule.windows(FeedSchedule.Phase.SEARCH);
        assertEquals(List.of(450.0, 550.0, 500.0), probes.stream().map(w -> (double) Math.round(w.ratePerSecond())).toList(),
            "0.9 C kept up: 1.1 C, which falls behind, then halfway");
        assertEquals(List.of(true, false, true), probes.stream().map(FeedSchedule.Window::keptUp).toList());
        assertEquals(probes.get(2).offeredPerSecond(), schedule.sustainedPerSecond(), "above 0.9 C: 1.0 C kept up");
    }

    /** One probe allowed after a capacity of 100/s read behind a backlog of {@code backlog}, the topology consuming 100/s. */
    private static FeedSchedule searchedAtAHundredPerSecondBehind(long backlog) {
        FeedSchedule schedule = new FeedSchedule(backlog, 1, 2, 1, 1_000, 0, 9, FAST);
        new Consumer(100).runUntil(schedule, FeedSchedule.Phase.DONE);
        return schedule;
    }

    @Test
    void shouldNotTakeAProbeThatStartedBehindAnUndrainedBacklogForOneThatKeptUpAndRunItAgainOnce() {
        // the drain gives up after 12 s with records left: a probe at 0.9 C then commits that backlog too
        FeedSchedule schedule = searchedAtAHundredPerSecondBehind(3_000);
        List<FeedSchedule.Window> probes = schedule.windows(FeedSchedule.Phase.SEARCH);
        FeedSchedule.Window probe = probes.get(0);
        assertTrue(probe.backlogFlat(), "committing the earlier backlog too, its backlog shrank: " + probe);
        assertTrue(probe.consumedPerSecond() > 1.05 * probe.offeredPerSecond(), "it committed more than it was offered: " + probe);
        assertFalse(probe.drainedBefore());
        assertFalse(probe.keptUp(), "catching up on a backlog is not keeping up with a rate");
        assertEquals(2, probes.size(), "run again once at the same rate: " + probes);
        assertEquals(probe.ratePerSecond(), probes.get(1).ratePerSecond());
        assertFalse(probes.get(1).drainedBefore(), "3,200 records at 100/s outlast two drains of 12 s");
        assertTrue(Double.isNaN(schedule.sustainedPerSecond()), "no probe kept up: no sustainable rate");
    }

    @Test
    void shouldTakeTheRateOfAProbeRunAgainBehindABacklogThatDrainedTheSecondTime() {
        // 1,700 records at 100/s: the first drain gives up after 12 s, the second drains what is left
        FeedSchedule schedule = searchedAtAHundredPerSecondBehind(1_500);
        List<FeedSchedule.Window> probes = schedule.windows(FeedSchedule.Phase.SEARCH);
        assertFalse(probes.get(0).drainedBefore() || probes.get(0).keptUp(), "the first probe started behind a backlog: " + probes);
        assertEquals(probes.get(0).ratePerSecond(), probes.get(1).ratePerSecond(), "run again at its rate");
        assertTrue(probes.get(1).drainedBefore() && probes.get(1).keptUp(), "behind a drained backlog it keeps up: " + probes);
        assertTrue(schedule.sustainedPerSecond() >= probes.get(1).offeredPerSecond(), "its rate counts: " + probes);
    }

    @Test
    void shouldTakeAProbeWhoseLatencyIsOverTheBoundForOneThatFellBehind() {
        FeedSchedule schedule = new FeedSchedule(3_000, 2, 10, 3, 1_000, 0, 3, (start, end) -> 1_500);
        Consumer topology = new Consumer(500);
        topology.runUntil(schedule, FeedSchedule.Phase.DONE);
        List<FeedSchedule.Window> probes = schedule.windows(FeedSchedule.Phase.SEARCH);
        assertEquals(3, probes.size(), "0.9, 0.7 and 0.5 of the capacity");
        assertTrue(probes.stream().allMatch(FeedSchedule.Window::backlogFlat), "the backlog stayed flat every time");
        assertTrue(probes.stream().noneMatch(FeedSchedule.Window::keptUp), "but the 99th percentile was over the bound");
        assertTrue(Double.isNaN(schedule.sustainedPerSecond()), "none kept up: no sustainable rate");
    }

    @Test
    void shouldTakeAWindowWithoutAnyReportedResultForOneThatFellBehind() {
        FeedSchedule schedule = new FeedSchedule(3_000, 1, 5, 1, 1_000, 0, 3, (start, end) -> -1);
        new Consumer(500).runUntil(schedule, FeedSchedule.Phase.DONE);
        assertFalse(schedule.windows(FeedSchedule.Phase.SEARCH).get(0).keptUp());
    }

    @Test
    void shouldMeasureTheCommonPhaseAtTheShareOfTheSustainableRateWhenTheFirstSystemSetsIt() {
        FeedSchedule schedule = new FeedSchedule(3_000, 1, 10, 1, 1_000, -0.5, 3, FAST);
        Consumer topology = new Consumer(1_000);
        topology.runUntil(schedule, FeedSchedule.Phase.DONE);
        assertEquals(1_000, schedule.sustainedPerSecond(), 100, "0.9 C kept up, 1.1 C fell behind, 1.0 C between kept up");
        assertEquals(0.5 * schedule.sustainedPerSecond(), schedule.windows(FeedSchedule.Phase.COMMON).stream().findFirst().orElseThrow().ratePerSecond(), 1e-9);

        FeedSchedule noSearch = new FeedSchedule(3_000, 1, 10, 0, 1_000, -0.5, 3, FAST);
        new Consumer(1_000).runUntil(noSearch, FeedSchedule.Phase.DONE);
        assertTrue(noSearch.windows(FeedSchedule.Phase.SEARCH).isEmpty(), "no probe: no search");
        assertEquals(500, noSearch.windows(FeedSchedule.Phase.COMMON).stream().findFirst().orElseThrow().ratePerSecond(), 10, "half the capacity");
    }

    @Test
    void shouldShowTheBacklogGrowingWhenTheCommonRateIsAboveWhatTheTopologyDrains() {
        FeedSchedule schedule = new FeedSchedule(3_000, 1, 10, 0, 1_000, 800, 5, FAST);
        Consumer topology = new Consumer(500);
        topology.runUntil(schedule, FeedSchedule.Phase.DONE);
        FeedSchedule.Window common = schedule.windows(FeedSchedule.Phase.COMMON).stream().findFirst().orElseThrow();
        assertEquals(800, common.ratePerSecond(), 0);
        assertEquals(500, common.consumedPerSecond(), 10);
        assertEquals(300, common.backlogGrowthPerSecond(), 800 * 0.1);
        assertFalse(common.keptUp());
    }

    @Test
    void shouldReadBackTheWindowsAsTheFeedWritesThem() throws Exception {
        FeedSchedule schedule = new FeedSchedule(3_000, 1, 5, 2, 1_000, 300, 11, FAST);
        new Consumer(400).runUntil(schedule, FeedSchedule.Phase.DONE);
        ObjectMapper json = new ObjectMapper();
        String written = json.writeValueAsString(schedule.windows());
        List<FeedSchedule.Window> read = json.readerForListOf(FeedSchedule.Window.class).readValue(json.readTree(written));
        assertEquals(schedule.windows(), read, written);
    }

    @Test
    void shouldStopWaitingForTheDrainAfterFourWarmUpsAndMeasurements() {
        Consumer topology = new Consumer(100);
        long drain = topology.drainMillis(new FeedSchedule(3_000, 1, 2, 1, 1_000, 0, 9, FAST), 100);
        assertTrue(topology.committed < topology.produced, "3,200 records at 100/s take longer than 12 s");
        assertEquals(4 * 3_000, drain, TICK_MS);
    }

    @Test
    void shouldWaitForADrainTwiceWhatTheBacklogTakesAtTheCapacity() {
        Consumer topology = new Consumer(400);
        long drain = topology.drainMillis(new FeedSchedule(3_000, 2, 5, 1, 1_000, 0, 9, FAST), 250);
        assertTrue(drain > 7_000, "longer than a warm-up and a measurement: " + drain + " ms");
        assertTrue(topology.produced - (long) topology.committed <= 2, "slower than the capacity, the backlog drained whole (the probe's first arrival aside)");
    }

    @Test
    void shouldDrainTheStartThenOfferEveryRateStepAsAPoissonProcessMeasuredFromTheInstantItBegins() {
        FeedSchedule schedule = FeedSchedule.steps(3_000, 30, RateSchedule.parse("100:10,300:10,600:10"), 1_000, 3, FAST);
        Consumer topology = new Consumer(500);
        topology.runUntil(schedule, FeedSchedule.Phase.DRAIN);
        assertEquals(-1, schedule.step());
        topology.runUntil(schedule, FeedSchedule.Phase.STEPS);
        assertEquals(0, topology.produced - (long) topology.committed, 1, "the steps start behind the drained start");
        assertEquals(0, schedule.step());
        assertTrue(schedule.measuring(), "a step is measured from its first instant");
        long stepsStart = topology.nowMillis;

        topology.runUntil(schedule, FeedSchedule.Phase.DONE);
        List<FeedSchedule.Window> steps = schedule.windows(FeedSchedule.Phase.STEPS);
        assertEquals(List.of(100.0, 300.0, 600.0), steps.stream().map(FeedSchedule.Window::ratePerSecond).toList());
        for (int i = 0; i < steps.size(); i++) {
            FeedSchedule.Window w = steps.get(i);
            assertEquals(stepsStart - TICK_MS + 10_000L * i, w.startMillis(), TICK_MS, "step " + i + " begins on time");
            assertEquals(10, w.seconds(), 0.02);
            assertEquals(w.ratePerSecond(), w.offeredPerSecond(), w.ratePerSecond() * 0.15, "Poisson at the step's rate");
        }
        assertTrue(steps.get(0).keptUp() && steps.get(1).keptUp(), "500/s keeps up with 100/s and 300/s");
        assertFalse(steps.get(2).keptUp(), "500/s falls behind 600/s: its backlog grows");
        assertEquals(500, steps.get(2).consumedPerSecond(), 10);
        assertEquals(-1, schedule.step());
        assertFalse(schedule.measuring());
    }

    /** The longest the schedule went between two changes the feed writes an event for, run to its end; in ms. */
    private static long longestStillMillis(FeedSchedule schedule, Consumer topology) {
        FeedSchedule.Mark last = schedule.mark();
        long lastChange = topology.nowMillis;
        long longest = 0;
        for (int i = 0; i < 1_000_000 && schedule.phase() != FeedSchedule.Phase.DONE; i++) {
            topology.tick(schedule, true);
            FeedSchedule.Mark now = schedule.mark();
            if (!now.equals(last)) {
                longest = Math.max(longest, topology.nowMillis - lastChange);
                last = now;
                lastChange = topology.nowMillis;
            }
        }
        assertEquals(FeedSchedule.Phase.DONE, schedule.phase());
        return longest;
    }

    @Test
    void shouldNeverStandStillLongerThanItsLongestStillThoughTheTopologyStopsDrainingAfterItsCapacity() {
        FeedSchedule schedule = new FeedSchedule(3_000, 2, 3, 3, 1_000, -0.5, 9, FAST);
        Consumer topology = new Consumer(100);
        topology.runUntil(schedule, FeedSchedule.Phase.DRAIN);
        topology.perSecond = 0;
        long longest = longestStillMillis(schedule, topology);
        assertEquals(FeedSchedule.longestStill(2, 3, 0).toMillis(), longest, TICK_MS, "each drain waits out its limit");
        assertTrue(schedule.windows(FeedSchedule.Phase.SEARCH).size() >= 4, "the search ran its probes, one of them again");
    }

    @Test
    void shouldNeverStandStillLongerThanItsLongestStillWhileTheTopologyDrainsSlowly() {
        FeedSchedule schedule = new FeedSchedule(3_000, 2, 3, 3, 1_000, 0, 9, FAST);
        Consumer topology = new Consumer(100);
        topology.runUntil(schedule, FeedSchedule.Phase.DRAIN);
        topology.perSecond = 30;
        assertTrue(longestStillMillis(schedule, topology) <= FeedSchedule.longestStill(2, 3, 0).toMillis());
    }

    @Test
    void shouldNeverStandStillLongerThanItsLongestStillThroughLongRateSteps() {
        FeedSchedule schedule = FeedSchedule.steps(500, 5, RateSchedule.parse("100:40,300:40"), 1_000, 3, FAST);
        long longest = longestStillMillis(schedule, new Consumer(50));
        assertEquals(FeedSchedule.longestStill(0, 5, 40).toMillis(), longest, TICK_MS, "a step is the longest");
    }

    @Test
    void shouldRefuseRateStepsWhoseLastStepNeverEnds() {
        RateSchedule lasting = RateSchedule.parse("100:10,300");
        assertThrows(IllegalArgumentException.class, () -> FeedSchedule.steps(3_000, 30, lasting, 1_000, 3, FAST));
    }
}
