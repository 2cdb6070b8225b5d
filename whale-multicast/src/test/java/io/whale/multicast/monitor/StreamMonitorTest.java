package io.whale.multicast.monitor;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamMonitorTest {
    private final ManualClock clock = new ManualClock();

    @Test
    void shouldSmoothTheRateWithAlphaWeighting() {
        StreamMonitor monitor = new StreamMonitor(clock, 0.8, 4);
        monitor.recordArrivals(300);
        clock.advanceMillis(10);
        assertEquals(30_000, monitor.tick(), 1e-9, "the first interval initialises λ");

        monitor.recordArrivals(600);
        clock.advanceMillis(10);
        assertEquals(0.8 * 30_000 + 0.2 * 60_000, monitor.tick(), 1e-9, "λ(t) = α·λ(t−1) + (1−α)·N(t)");
    }

    @Test
    void shouldNotMistakeALateTickForABurst() {
        StreamMonitor monitor = new StreamMonitor(clock, 0.8, 4);
        monitor.recordArrivals(300);
        clock.advanceMillis(10);
        monitor.tick();

        monitor.recordArrivals(1500);
        clock.advanceMillis(50);
        assertEquals(30_000, monitor.tick(), 1e-9, "five intervals' worth of tuples over five intervals");
    }

    @Test
    void shouldClampASingleOutlierButFollowALevelShift() {
        StreamMonitor monitor = new StreamMonitor(clock, 0.5, 4);
        monitor.recordArrivals(100);
        clock.advanceMillis(10);
        monitor.tick();

        monitor.recordArrivals(100_000);
        clock.advanceMillis(10);
        assertEquals(0.5 * 10_000 + 0.5 * 40_000, monitor.tick(), 1e-9, "one spike counts as 4x at most");

        monitor.recordArrivals(100);
        clock.advanceMillis(10);
        double back = monitor.tick();
        assertEquals(0.5 * 25_000 + 0.5 * 10_000, back, 1e-9);

        monitor.recordArrivals(10_000);
        clock.advanceMillis(10);
        double first = monitor.tick();
        monitor.recordArrivals(10_000);
        clock.advanceMillis(10);
        double second = monitor.tick();
        assertEquals(0.5 * first + 0.5 * 1_000_000, second, 1e-6, "a second out-of-range interval is believed");
    }

    @Test
    void shouldIgnoreATickWithoutElapsedTime() {
        StreamMonitor monitor = new StreamMonitor(clock, 0.8, 4);
        monitor.recordArrivals(10);
        assertTrue(Double.isNaN(monitor.tick()));
        clock.advanceMillis(10);
        assertEquals(1000, monitor.tick(), 1e-9);
    }

    @Test
    void shouldCountEveryArrivalFromConcurrentThreads() throws InterruptedException {
        StreamMonitor monitor = new StreamMonitor(clock, 0.8, 4);
        int threads = 4;
        int perThread = 100_000;
        try (ConcurrentRecorders recorders = ConcurrentRecorders.start(threads, perThread, monitor::recordArrival)) {
            assertTrue(recorders.awaitDone(30, TimeUnit.SECONDS));
        }
        assertEquals((long) threads * perThread, monitor.totalArrivals());
        clock.advanceMillis(1000);
        assertEquals(threads * perThread, monitor.tick(), 1e-9);
    }

    @Test
    void recordingAnArrivalAllocatesNothing() {
        StreamMonitor monitor = new StreamMonitor(clock, 0.8, 4);
        Runnable burst = () -> {
            for (int i = 0; i < 200_000; i++) {
                monitor.recordArrival();
            }
        };
        burst.run();
        long bytes = Allocations.allocatedBy(burst);
        assertTrue(bytes < 1024, "200k arrivals allocated " + bytes + " bytes");
    }
}
