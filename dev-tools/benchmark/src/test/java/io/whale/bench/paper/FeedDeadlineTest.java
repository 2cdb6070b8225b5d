package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FeedDeadlineTest {
    private static final long S = 1_000_000_000L;
    private static final long SLACK = FeedDeadline.SLACK.toSeconds();

    @Test
    void shouldGiveTheTopologyItsStartAndJitWaitUntilTheFeedIsReleased() {
        FeedDeadline deadline = new FeedDeadline(100 * S, Duration.ofSeconds(210), Duration.ofSeconds(44));
        assertEquals(Optional.empty(), deadline.passed((100 + 210 + SLACK) * S));
        assertTrue(deadline.passed((100 + 211 + SLACK) * S).orElseThrow().contains("did not start and warm up within 240 s"));
    }

    @Test
    void shouldKeepWaitingPastAnyFixedLengthWhileTheFeedMoves() {
        FeedDeadline deadline = new FeedDeadline(0, Duration.ofSeconds(210), Duration.ofSeconds(44));
        deadline.released(200 * S);
        long now = 200 * S;
        for (int event = 0; event < 100; event++) {
            now += 40 * S;
            assertEquals(Optional.empty(), deadline.passed(now), "an hour of phases, each within its longest");
            deadline.moved(now, "drain");
        }
    }

    @Test
    void shouldStopWaitingWhenTheFeedStandsStillLongerThanItsLongestPhaseAndNameThePhase() {
        FeedDeadline deadline = new FeedDeadline(0, Duration.ofSeconds(210), Duration.ofSeconds(44));
        deadline.released(200 * S);
        deadline.moved(230 * S, "search");
        assertEquals(Optional.empty(), deadline.passed((230 + 44 + SLACK) * S));
        String why = deadline.passed((230 + 45 + SLACK) * S).orElseThrow();
        assertTrue(why.contains("stood still in its search phase for more than 74 s"), why);
    }

    @Test
    void shouldCountTheStillTimeFromTheReleaseBeforeTheFeedsFirstEvent() {
        FeedDeadline deadline = new FeedDeadline(0, Duration.ofSeconds(210), Duration.ofSeconds(44));
        deadline.released(230 * S);
        assertEquals(Optional.empty(), deadline.passed((230 + 44 + SLACK) * S), "the start's limit no longer counts");
        assertTrue(deadline.passed((230 + 45 + SLACK) * S).orElseThrow().contains("starting phase"));
    }
}
