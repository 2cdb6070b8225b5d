package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PoissonArrivalsTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void shouldOfferTheRateOnAverageWithExponentialGaps() {
        PoissonArrivals arrivals = new PoissonArrivals(10_000, 0, new SplittableRandom(7));
        int count = 0;
        long previous = 0;
        long gapsUnderMean = 0;
        for (long due = arrivals.nextDue(100 * SECOND); due != Long.MIN_VALUE; due = arrivals.nextDue(100 * SECOND)) {
            gapsUnderMean += due - previous < SECOND / 10_000 ? 1 : 0;
            previous = due;
            count++;
        }
        assertEquals(1_000_000, count, 1_000_000 * 0.01, "10 000/s over 100 s");
        assertEquals(1 - Math.exp(-1), (double) gapsUnderMean / count, 0.01, "P(gap < mean) of an exponential gap");
    }

    @Test
    void shouldKeepArrivalsThatFellDueWhileTheCallerWasHeldBack() {
        PoissonArrivals arrivals = new PoissonArrivals(1_000, 5 * SECOND, new SplittableRandom(1));
        assertEquals(Long.MIN_VALUE, arrivals.nextDue(5 * SECOND - 1), "nothing before the start");
        int due = 0;
        long last = 0;
        for (long t = arrivals.nextDue(6 * SECOND); t != Long.MIN_VALUE; t = arrivals.nextDue(6 * SECOND)) {
            assertTrue(t >= last && t <= 6 * SECOND);
            last = t;
            due++;
        }
        assertEquals(1_000, due, 100, "a second late, about a second's worth is due at once, each with its own time");
    }

    @Test
    void shouldCountTheArrivalsLeftBeforeAnEndWithoutTheOnesAlreadyTaken() {
        PoissonArrivals arrivals = new PoissonArrivals(1_000, 0, new SplittableRandom(3));
        int taken = 0;
        while (taken < 100 && arrivals.nextDue(SECOND / 2) != Long.MIN_VALUE) {
            taken++;
        }
        long left = arrivals.dueBefore(SECOND);
        assertEquals(1_000 - 100, left, 100, "a second at 1 000/s, less the 100 taken");
        assertEquals(Long.MIN_VALUE, arrivals.nextDue(SECOND - 1), "nothing due before the end once counted");
        assertEquals(0, arrivals.dueBefore(SECOND));
    }
}
