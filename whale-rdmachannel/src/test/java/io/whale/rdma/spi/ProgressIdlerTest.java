package io.whale.rdma.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.whale.rdma.spi.ProgressIdler.Kind;
import io.whale.rdma.spi.ProgressIdler.Step;
import org.junit.jupiter.api.Test;

class ProgressIdlerTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;
    private static final int SPINS = 50;
    private static final int YIELDS = 10;

    /** Idle turns until the first park, at time 0 with nothing due. */
    private static void spinAndYield(ProgressIdler idler) {
        for (int i = 0; i < SPINS; i++) {
            assertEquals(Kind.SPIN, idler.next(0, 0, Poller.NO_DEADLINE).kind());
        }
        for (int i = 0; i < YIELDS; i++) {
            assertEquals(Kind.YIELD, idler.next(0, 0, Poller.NO_DEADLINE).kind());
        }
    }

    private static ProgressIdler idler(long maxParkNanos, long maxWaitNanos) {
        return new ProgressIdler(SPINS, YIELDS, maxParkNanos, maxWaitNanos);
    }

    @Test
    void shouldWaitOnTheFirstIdleTurnWhenItNeitherSpinsNorYields() {
        ProgressIdler idler = new ProgressIdler(0, 0, 100 * US, 10 * MS);
        assertEquals(new Step(Kind.WAIT, 10 * MS), idler.next(0, 0, Poller.NO_DEADLINE));
        assertEquals(Kind.RUN, idler.next(1, 0, Poller.NO_DEADLINE).kind());
        assertEquals(new Step(Kind.WAIT, 10 * MS), idler.next(0, 0, Poller.NO_DEADLINE), "after work, at once again");
    }

    @Test
    void shouldYieldWithoutSpinningWhenItHasNoSpins() {
        ProgressIdler idler = new ProgressIdler(0, 2, 100 * US, 10 * MS);
        assertEquals(Kind.YIELD, idler.next(0, 0, Poller.NO_DEADLINE).kind());
        assertEquals(Kind.YIELD, idler.next(0, 0, Poller.NO_DEADLINE).kind());
        assertEquals(Kind.WAIT, idler.next(0, 0, Poller.NO_DEADLINE).kind());
    }

    @Test
    void shouldWaitForEventsBoundedByItsLongestWaitOnceItHasSpunAndYielded() {
        ProgressIdler idler = idler(100 * US, 10 * MS);
        spinAndYield(idler);
        assertEquals(new Step(Kind.WAIT, 10 * MS), idler.next(0, 0, Poller.NO_DEADLINE));
        assertEquals(new Step(Kind.WAIT, 10 * MS), idler.next(0, 0, Poller.NO_DEADLINE), "and it keeps waiting");
    }

    @Test
    void shouldWaitOnlyUntilTheNearestDeadline() {
        ProgressIdler idler = idler(100 * US, 10 * MS);
        spinAndYield(idler);
        assertEquals(new Step(Kind.WAIT, 3 * MS), idler.next(0, 5 * MS, 8 * MS));
    }

    @Test
    void shouldParkUntilADeadlineNearerThanTheLongestParkRatherThanWait() {
        ProgressIdler idler = idler(100 * US, 10 * MS);
        spinAndYield(idler);
        assertEquals(new Step(Kind.PARK, 40 * US), idler.next(0, 1 * MS, 1 * MS + 40 * US),
            "a Wait Time Limit 40 µs away is kept by a park, not by a timer's signal");
    }

    @Test
    void shouldRunAtOnceWhenADeadlineIsDueOrWorkWasDone() {
        ProgressIdler idler = idler(100 * US, 10 * MS);
        spinAndYield(idler);
        assertEquals(Kind.RUN, idler.next(0, 5 * MS, 5 * MS).kind());
        assertEquals(Kind.RUN, idler.next(0, 5 * MS, 4 * MS).kind());
        assertEquals(Kind.RUN, idler.next(3, 5 * MS, Poller.NO_DEADLINE).kind());
        assertEquals(Kind.SPIN, idler.next(0, 5 * MS, Poller.NO_DEADLINE).kind(), "work starts the back-off over");
    }

    @Test
    void shouldPollWithDoublingParksWhenTheEngineCannotWaitForEvents() {
        ProgressIdler idler = idler(100 * US, 0);
        spinAndYield(idler);
        long[] parks = {1 * US, 2 * US, 4 * US, 8 * US, 16 * US, 32 * US, 64 * US, 100 * US, 100 * US};
        for (long park : parks) {
            assertEquals(new Step(Kind.PARK, park), idler.next(0, 0, Poller.NO_DEADLINE));
        }
        assertEquals(new Step(Kind.PARK, 30 * US), idler.next(0, 0, 30 * US), "no park past a deadline");
    }

    @Test
    void shouldReadDeadlinesAcrossTheNanoTimeWrap() {
        ProgressIdler idler = idler(100 * US, 10 * MS);
        spinAndYield(idler);
        long now = Long.MAX_VALUE - MS;
        assertEquals(new Step(Kind.WAIT, 2 * MS), idler.next(0, now, now + 2 * MS));
    }
}
