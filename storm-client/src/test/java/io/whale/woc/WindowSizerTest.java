package io.whale.woc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Sizing a frame window from timed frames, with plain numbers (times in ms, as nanoseconds). */
class WindowSizerTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldSizeTheWindowToTheDeliveryRateTimesTheRoundTripPlusTheTargetDelay() {
        WindowSizer sizer = new WindowSizer(8192, 50 * MS);
        assertEquals(8192, sizer.capacity(), "the configured window until a timed frame returns");

        sizer.startProbe(100, 0);
        sizer.credited(100, 10 * MS);

        assertEquals(10 * MS, sizer.minRttNanos());
        assertEquals(600, sizer.capacity(), "10 tuples/ms x (10 ms + 50 ms)");
    }

    @Test
    void shouldEndAProbeOnlyWhenAllThatWasInFlightAtItsStartIsCredited() {
        WindowSizer sizer = new WindowSizer(8192, 50 * MS);
        sizer.startProbe(100, 0);
        sizer.credited(60, 5 * MS);
        assertTrue(sizer.probing());
        assertEquals(8192, sizer.capacity());

        sizer.credited(60, 12 * MS);
        assertEquals(false, sizer.probing());
        assertEquals(12 * MS, sizer.minRttNanos());
        assertEquals(620, sizer.capacity(), "120 tuples in 12 ms x (12 ms + 50 ms)");
    }

    @Test
    void shouldStayBetweenTheFloorAndTheConfiguredWindow() {
        WindowSizer sizer = new WindowSizer(8192, 50 * MS);
        sizer.startProbe(2, 0);
        sizer.credited(2, 10 * MS);
        assertEquals(WindowSizer.FLOOR_TUPLES, sizer.capacity(), "0.2 tuples/ms x 60 ms is 12, under the floor");

        WindowSizer fast = new WindowSizer(1000, 50 * MS);
        fast.startProbe(5000, 0);
        fast.credited(5000, MS);
        assertEquals(1000, fast.capacity(), "never wider than configured");

        WindowSizer tiny = new WindowSizer(16, 50 * MS);
        tiny.startProbe(1, 0);
        tiny.credited(1, 10 * MS);
        assertEquals(16, tiny.capacity(), "a configured window under the floor is the floor");
    }

    @Test
    void shouldKeepTheHighestRateOfTheLastTenRoundTrips() {
        WindowSizer sizer = new WindowSizer(100_000, 50 * MS);
        long now = probe(sizer, 0, 1000, 10 * MS); // 100 tuples/ms
        assertEquals(6000, sizer.capacity());
        for (int i = 1; i < WindowSizer.RATE_SAMPLES; i++) {
            now = probe(sizer, now, 100, 10 * MS); // 10 tuples/ms
            assertEquals(6000, sizer.capacity(), "a slower round trip does not undo a faster one at once");
        }
        probe(sizer, now, 100, 10 * MS);
        assertEquals(600, sizer.capacity(), "ten round trips later the fast one has aged out");
    }

    @Test
    void shouldForgetTheLowestRoundTripAfterTenSeconds() {
        WindowSizer sizer = new WindowSizer(100_000, 50 * MS);
        long now = probe(sizer, 0, 100, 10 * MS);
        now = probe(sizer, now, 400, 40 * MS);
        assertEquals(10 * MS, sizer.minRttNanos());

        probe(sizer, now + WindowSizer.MIN_RTT_EXPIRY_NANOS, 400, 40 * MS);
        assertEquals(40 * MS, sizer.minRttNanos(), "the path's round trip grew");
    }

    @Test
    void shouldTakeNoSampleFromAnAbandonedProbe() {
        WindowSizer sizer = new WindowSizer(8192, 50 * MS);
        sizer.startProbe(10, 0);
        sizer.abandonProbe();
        sizer.credited(10, 10 * MS);
        assertEquals(8192, sizer.capacity());
        assertEquals(Long.MAX_VALUE, sizer.minRttNanos());
    }

    @Test
    void shouldStartAgainFromTheConfiguredWindowOnANewConnection() {
        WindowSizer sizer = new WindowSizer(8192, 50 * MS);
        probe(sizer, 0, 10, 10 * MS);
        assertEquals(WindowSizer.FLOOR_TUPLES, sizer.capacity());
        sizer.reset();
        assertEquals(8192, sizer.capacity());
        assertEquals(Long.MAX_VALUE, sizer.minRttNanos());
    }

    @Test
    void shouldGrowUntilALinkSlowerThanTheSenderQueuesTheTargetDelay() {
        // A link that delivers 100 tuples/ms behind a 5 ms round trip; the sender always has frames and keeps the
        // window full. Its last samples were taken while it sent little (1 tuple/ms: the floor).
        double linkRate = 100;
        long baseRtt = 5 * MS;
        WindowSizer sizer = new WindowSizer(100_000, 50 * MS);
        long now = probe(sizer, 0, 5, baseRtt);
        for (int i = 0; i < WindowSizer.RATE_SAMPLES; i++) {
            now = probe(sizer, now, 5, baseRtt);
        }
        assertEquals(WindowSizer.FLOOR_TUPLES, sizer.capacity());

        int roundTrips = 0;
        while (roundTrips < 10) {
            int window = sizer.capacity();
            long rtt = Math.max(baseRtt, (long) (window / linkRate * MS)); // beyond the link's BDP, frames queue
            now = probe(sizer, now, window, rtt);
            roundTrips++;
        }
        long queued = (long) (sizer.capacity() / linkRate * MS) - baseRtt;
        assertEquals(5500, sizer.capacity(), 1, "100 tuples/ms x (5 ms + 50 ms)");
        assertEquals(50 * MS, queued, MS, "the window holds the target delay of queue, no more");
    }

    /** A frame timed at {@code start} with {@code inFlight} tuples ahead of it, all credited {@code rtt} later. */
    private static long probe(WindowSizer sizer, long start, int inFlight, long rtt) {
        sizer.startProbe(inFlight, start);
        sizer.credited(inFlight, start + rtt);
        return start + rtt;
    }
}
