package io.whale.flow;

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

        probe(sizer, 0, 100, 10 * MS);

        assertEquals(10 * MS, sizer.minRttNanos());
        assertEquals(600, sizer.capacity(), "10 tuples/ms x (10 ms + 50 ms)");
    }

    @Test
    void shouldAllowTheTargetDelayAtEveryWorkerARelayFramesCreditComesBackThrough() {
        WindowSizer sizer = new WindowSizer(8192, 50 * MS);
        probe(sizer, 0, 100, 3, 10 * MS);
        assertEquals(1600, sizer.capacity(), 1, "10 tuples/ms x (10 ms + 3 x 50 ms)");
    }

    @Test
    void shouldAllowTheDelayForTheDeepestFrameTimedInTheLastTenRoundTrips() {
        WindowSizer sizer = new WindowSizer(100_000, 50 * MS);
        long now = 0;
        for (int i = 0; i < WindowSizer.RATE_SAMPLES; i++) {
            now = probe(sizer, now, 100, i % 2 == 0 ? 3 : 1, 10 * MS);
            assertEquals(1600, sizer.capacity(), 1, "10 tuples/ms x (10 ms + 3 x 50 ms), whichever frame was timed last");
        }
    }

    @Test
    void shouldKeepTheWindowWhenThePathChangesBeforeAnyRoundTripWasTimed() {
        WindowSizer sizer = new WindowSizer(8192, 50 * MS);
        sizer.startProbe(10, 1, 0);
        sizer.timeRoundTripAgain();
        assertEquals(8192, sizer.capacity(), "nothing to size it by yet");
        sizer.credited(10, 10 * MS);
        assertEquals(8192, sizer.capacity(), "the probe before the change takes no sample");
        probe(sizer, 20 * MS, 100, 10 * MS);
        assertEquals(10 * MS, sizer.minRttNanos());
    }

    @Test
    void shouldEndAProbeOnlyWhenAllThatWasInFlightAtItsStartIsCredited() {
        WindowSizer sizer = new WindowSizer(8192, 50 * MS);
        sizer.startProbe(100, 1, 0);
        sizer.credited(60, 5 * MS);
        assertTrue(sizer.probing());
        assertEquals(8192, sizer.capacity());

        sizer.credited(60, 12 * MS);
        assertEquals(false, sizer.probing());
        assertEquals(12 * MS, sizer.minRttNanos());
        assertEquals(620, sizer.capacity(), "120 tuples in 12 ms x (12 ms + 50 ms)");
    }

    @Test
    void shouldTimeABurstOfCreditAfterASilenceFromTheLastCreditNotFromTheTimedFrame() {
        WindowSizer sizer = new WindowSizer(100_000, 50 * MS);
        long now = probe(sizer, 0, 100, 10 * MS);
        assertEquals(600, sizer.capacity(), "10 tuples/ms x (10 ms + 50 ms)");

        // TCP retransmits for a second; the window fills 900 ms into the silence, then the receiver gets it all at once
        sizer.startProbe(6000, 1, now + 900 * MS);
        sizer.credited(6000, now + 950 * MS);

        assertEquals(10 * MS, sizer.minRttNanos());
        assertEquals(600, sizer.capacity(), "6,000 tuples in the 950 ms since the last credit, not in the 50 ms since the "
            + "timed frame (120 tuples/ms, a window of 7,200): under the 10 tuples/ms the max filter keeps");
    }

    @Test
    void shouldTimeAFrameFromItsOwnSendWhenEverythingBeforeItWasCredited() {
        WindowSizer sizer = new WindowSizer(100_000, 50 * MS);
        long now = probe(sizer, 0, 100, 10 * MS);
        sizer.drained();

        probe(sizer, now + 5_000 * MS, 200, 10 * MS);

        assertEquals(1200, sizer.capacity(), "20 tuples/ms x (10 ms + 50 ms): the 5 s nothing was owed are not the path's");
    }

    @Test
    void shouldStayBetweenTheFloorAndTheConfiguredWindow() {
        WindowSizer sizer = new WindowSizer(8192, 50 * MS);
        probe(sizer, 0, 2, 10 * MS);
        assertEquals(WindowSizer.FLOOR_TUPLES, sizer.capacity(), "0.2 tuples/ms x 60 ms is 12, under the floor");

        WindowSizer fast = new WindowSizer(1000, 50 * MS);
        probe(fast, 0, 5000, MS);
        assertEquals(1000, fast.capacity(), "never wider than configured");

        WindowSizer tiny = new WindowSizer(16, 50 * MS);
        probe(tiny, 0, 1, 10 * MS);
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
    void shouldMeasureTheRoundTripAgainBehindADrainedQueueOnceTheLowestIsTenSecondsOld() {
        WindowSizer sizer = new WindowSizer(100_000, 50 * MS);
        long now = probe(sizer, 0, 100, 10 * MS);
        now = probe(sizer, now, 400, 40 * MS);
        assertEquals(10 * MS, sizer.minRttNanos());

        now = probe(sizer, now + WindowSizer.MIN_RTT_EXPIRY_NANOS, 400, 40 * MS);
        assertEquals(WindowSizer.FLOOR_TUPLES, sizer.capacity(), "the queue drains to the floor before the round trip is timed again");
        assertEquals(10 * MS, sizer.minRttNanos(), "a round trip timed behind a queue is not taken as the path's");

        probe(sizer, now, 100, 30 * MS);
        assertEquals(30 * MS, sizer.minRttNanos(), "the path's round trip grew");
        assertEquals(800, sizer.capacity(), 1, "the highest rate, 10 tuples/ms, x (30 ms + 50 ms)");
    }

    @Test
    void shouldFindThePathsRoundTripAgainOnceTheLowestWasTimedBehindAQueue() {
        // 10 tuples/ms behind a 10-ms round trip; the first frame timed sat behind 2,000 tuples of queue (200 ms)
        double linkRate = 10;
        WindowSizer sizer = new WindowSizer(100_000, 50 * MS);
        long now = probe(sizer, 0, 2_000, 200 * MS);
        now = probe(sizer, now + WindowSizer.MIN_RTT_EXPIRY_NANOS, 2_500, 250 * MS);
        assertEquals(WindowSizer.FLOOR_TUPLES, sizer.capacity(), "drained whatever rate x lowest round trip says (2,000 tuples)");

        probe(sizer, now, sizer.capacity(), roundTripOf(sizer.capacity(), linkRate, 10 * MS));
        assertEquals(10 * MS, sizer.minRttNanos(), "behind the rate x 200 ms it would have timed 200 ms again");
        assertEquals(600, sizer.capacity(), 1, "10 tuples/ms x (10 ms + 50 ms)");
    }

    @Test
    void shouldHoldTheTargetDelayOfQueueOnALinkThatStaysFullForAMinute() {
        // Without draining, a minimum timed behind the window's own queue would add the target delay again at each
        // expiry: 50 ms more queue every 10 s.
        double linkRate = 100; // tuples per ms, behind a 5 ms round trip
        long baseRtt = 5 * MS;
        WindowSizer sizer = new WindowSizer(100_000, 50 * MS);
        long now = probe(sizer, 0, 10, baseRtt);
        long longestQueue = 0;
        while (now < 60_000 * MS) {
            long rtt = roundTripOf(sizer.capacity(), linkRate, baseRtt);
            now = probe(sizer, now, sizer.capacity(), rtt);
            longestQueue = Math.max(longestQueue, rtt - baseRtt);
        }
        assertEquals(50 * MS, longestQueue, MS, "the queue never grows past the target delay");
        assertEquals(5 * MS, sizer.minRttNanos());
    }

    @Test
    void shouldCarryTheSameRateOnceThePathBehindTheConnectionGrewDeeper() {
        // A relay tree was reshaped: the connection's child now relays to more members, so the round trip grew from
        // 10 to 100 ms while the bottleneck still delivers 100 tuples/ms.
        double linkRate = 100;
        WindowSizer sizer = new WindowSizer(100_000, 50 * MS);
        long now = probe(sizer, 0, 10, 10 * MS);
        for (int i = 0; i < 20; i++) {
            now = probe(sizer, now, sizer.capacity(), roundTripOf(sizer.capacity(), linkRate, 10 * MS));
        }
        assertEquals(6000, sizer.capacity(), 1, "100 tuples/ms x (10 ms + 50 ms)");

        sizer.timeRoundTripAgain();
        for (int i = 0; i < 20; i++) {
            now = probe(sizer, now, sizer.capacity(), roundTripOf(sizer.capacity(), linkRate, 100 * MS));
        }
        assertEquals(100 * MS, sizer.minRttNanos());
        assertEquals(15_000, sizer.capacity(), 1, "100 tuples/ms x (100 ms + 50 ms): the path carries its rate again");
    }

    @Test
    void shouldTakeNoSampleFromAnAbandonedProbe() {
        WindowSizer sizer = new WindowSizer(8192, 50 * MS);
        sizer.startProbe(10, 1, 0);
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
            now = probe(sizer, now, window, roundTripOf(window, linkRate, baseRtt));
            roundTrips++;
        }
        long queued = (long) (sizer.capacity() / linkRate * MS) - baseRtt;
        assertEquals(5500, sizer.capacity(), 1, "100 tuples/ms x (5 ms + 50 ms)");
        assertEquals(50 * MS, queued, MS, "the window holds the target delay of queue, no more");
    }

    /** The round trip behind {@code window} tuples on a link of {@code linkRate} tuples/ms: beyond its BDP, frames queue. */
    private static long roundTripOf(int window, double linkRate, long baseRtt) {
        return Math.max(baseRtt, (long) (window / linkRate * MS));
    }

    /** A frame timed at {@code start} with {@code inFlight} tuples ahead of it, all credited {@code rtt} later. */
    private static long probe(WindowSizer sizer, long start, int inFlight, long rtt) {
        return probe(sizer, start, inFlight, 1, rtt);
    }

    /** {@link #probe(WindowSizer, long, int, long)} for a frame that passes through {@code hops} workers. */
    private static long probe(WindowSizer sizer, long start, int inFlight, int hops, long rtt) {
        sizer.startProbe(inFlight, hops, start);
        sizer.credited(inFlight, start + rtt);
        return start + rtt;
    }
}
