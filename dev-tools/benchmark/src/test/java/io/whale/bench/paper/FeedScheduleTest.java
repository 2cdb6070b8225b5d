package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FeedScheduleTest {
    private static final long TICK_MS = 10;

    /** A topology that commits what it was offered at most {@code perSecond}, a tick behind; time in ticks of 10 ms. */
    private static final class Consumer {
        final double perSecond;
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

        void runUntil(FeedSchedule schedule, FeedSchedule.Phase phase) {
            for (int i = 0; i < 1_000_000 && schedule.phase() != phase; i++) {
                tick(schedule, true);
            }
            assertEquals(phase, schedule.phase());
        }
    }

    @Test
    void shouldKeepABacklogUntilReleasedAndMeasureTheRateTheTopologyDrainsItAt() {
        FeedSchedule schedule = new FeedSchedule(3_000, 2, 10, 0.8, 0, 1);
        Consumer topology = new Consumer(500);
        assertEquals(3_000, topology.tick(schedule, false), "the whole backlog at once");
        for (int i = 0; i < 500; i++) {
            topology.tick(schedule, false);
        }
        assertEquals(FeedSchedule.Phase.STARTING, schedule.phase(), "not released: still starting though it consumes");
        assertEquals(3_000, topology.produced - (long) topology.committed, 1, "the backlog topped up");

        topology.runUntil(schedule, FeedSchedule.Phase.DRAIN);
        FeedSchedule.Window capacity = schedule.window(FeedSchedule.Phase.CAPACITY).orElseThrow();
        assertEquals(500, capacity.consumedPerSecond(), 5);
        assertEquals(10, capacity.seconds(), 0.02);
        assertTrue(topology.produced - topology.committed > 3_000, "two seconds of drained records kept beyond the base backlog");
    }

    @Test
    void shouldOfferAPoissonProcessAtTheLoadShareOfTheCapacityOnceTheBacklogHasDrained() {
        FeedSchedule schedule = new FeedSchedule(3_000, 2, 20, 0.8, 0, 7);
        Consumer topology = new Consumer(500);
        topology.runUntil(schedule, FeedSchedule.Phase.OWN);
        assertTrue(topology.produced - topology.committed <= 2, "the own phase starts behind a drained backlog (its first arrival aside)");

        topology.runUntil(schedule, FeedSchedule.Phase.DONE);
        FeedSchedule.Window own = schedule.window(FeedSchedule.Phase.OWN).orElseThrow();
        assertEquals(400, own.ratePerSecond(), 4);
        assertEquals(400, own.offeredPerSecond(), 400 * 0.1, "Poisson at 400/s over 20 s");
        assertEquals(0, own.backlogGrowthPerSecond(), 400 * 0.05, "a topology faster than the offered rate keeps up");
        assertTrue(schedule.window(FeedSchedule.Phase.COMMON).isEmpty(), "no common rate given: no common phase");
    }

    @Test
    void shouldMeasureTheCommonPhaseAtTheShareOfTheCapacityWhenTheFirstSystemSetsIt() {
        FeedSchedule schedule = new FeedSchedule(3_000, 1, 10, 0, -0.5, 3);
        Consumer topology = new Consumer(1_000);
        topology.runUntil(schedule, FeedSchedule.Phase.DONE);
        assertTrue(schedule.window(FeedSchedule.Phase.OWN).isEmpty(), "load 0: no own phase");
        assertEquals(500, schedule.window(FeedSchedule.Phase.COMMON).orElseThrow().ratePerSecond(), 10);
    }

    @Test
    void shouldShowTheBacklogGrowingWhenTheCommonRateIsAboveWhatTheTopologyDrains() {
        FeedSchedule schedule = new FeedSchedule(3_000, 1, 10, 0, 800, 5);
        Consumer topology = new Consumer(500);
        topology.runUntil(schedule, FeedSchedule.Phase.DONE);
        FeedSchedule.Window common = schedule.window(FeedSchedule.Phase.COMMON).orElseThrow();
        assertEquals(800, common.ratePerSecond(), 0);
        assertEquals(500, common.consumedPerSecond(), 10);
        assertEquals(300, common.backlogGrowthPerSecond(), 800 * 0.1);
    }

    @Test
    void shouldReadBackTheWindowsAsTheFeedWritesThem() throws Exception {
        FeedSchedule schedule = new FeedSchedule(3_000, 1, 5, 0.5, 0, 11);
        new Consumer(400).runUntil(schedule, FeedSchedule.Phase.DONE);
        ObjectMapper json = new ObjectMapper();
        String written = json.writeValueAsString(schedule.windows());
        List<FeedSchedule.Window> read = json.readerForListOf(FeedSchedule.Window.class).readValue(json.readTree(written));
        assertEquals(schedule.windows(), read, written);
    }

    @Test
    void shouldStopWaitingForTheDrainAfterAWarmUpAndAMeasurement() {
        FeedSchedule schedule = new FeedSchedule(3_000, 1, 2, 0.5, 0, 9);
        Consumer topology = new Consumer(100);
        topology.runUntil(schedule, FeedSchedule.Phase.DRAIN);
        long drainStart = topology.nowMillis;
        topology.runUntil(schedule, FeedSchedule.Phase.OWN);
        assertTrue(topology.committed < topology.produced, "3,000 records at 100/s take longer than 3 s");
        assertEquals(3_000, topology.nowMillis - drainStart, TICK_MS);
    }
}
