package io.whale.relay;

import static io.whale.relay.SequenceFilter.Verdict.DELIVER;
import static io.whale.relay.SequenceFilter.Verdict.DUPLICATE;
import static io.whale.relay.SequenceFilter.Verdict.STALE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SequenceFilterTest {
    private static final long MS = 1_000_000L;
    private static final long QUIET = SequenceFilter.QUIET_NANOS;
    private final SequenceFilter filter = new SequenceFilter();

    @Test
    void shouldDropAFrameAtOrBelowTheLastDelivered() {
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 1, 0));
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 2, MS));
        assertEquals(DUPLICATE, filter.accept(1, 0, 10L, 2, 2 * MS));
        assertEquals(DUPLICATE, filter.accept(1, 0, 10L, 1, 3 * MS));
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 3, 4 * MS));
    }

    @Test
    void shouldKeepSourcesAndTreesApart() {
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 5, 0));
        assertEquals(DELIVER, filter.accept(2, 0, 10L, 1, 0));
        assertEquals(DELIVER, filter.accept(1, 1, 10L, 1, 0));
    }

    @Test
    void shouldTakeARestartedSourceOnceItsEarlierLaunchIsQuietAndIgnoreThatLaunchFromThen() {
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 500, 0));
        assertEquals(STALE, filter.accept(1, 0, 20L, 1, QUIET / 2), "the earlier launch delivered half a quiet time ago");
        assertEquals(DELIVER, filter.accept(1, 0, 20L, 2, QUIET), "a relaunched worker's frames come seconds after");
        assertEquals(STALE, filter.accept(1, 0, 10L, 501, QUIET + MS), "a frame of the earlier launch still in flight");
        assertEquals(DELIVER, filter.accept(1, 0, 20L, 3, QUIET + 2 * MS));
    }

    @Test
    void shouldNotLetAForgedLaterLaunchOrSeqSilenceASourceThatIsSending() {
        long now = 0;
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 1, now));
        assertEquals(STALE, filter.accept(1, 0, Long.MAX_VALUE, Long.MAX_VALUE, now += MS));
        assertEquals(STALE, filter.accept(1, 0, 10L, Long.MAX_VALUE, now += MS));
        assertEquals(STALE, filter.accept(1, 0, 10L, 2 + SequenceFilter.MAX_JUMP, now += MS));
        for (long seq = 2; seq < 100; seq++) {
            assertEquals(DELIVER, filter.accept(1, 0, 10L, seq, now += 50 * MS), "genuine frame " + seq);
        }
    }

    @Test
    void shouldHearASourceAgainWithinTheQuietTimeAfterAForgedFrameMovedItsStreamAhead() {
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 1, 0));
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 1 + SequenceFilter.MAX_JUMP, MS), "within a step: taken");
        assertEquals(DUPLICATE, filter.accept(1, 0, 10L, 2, 2 * MS));
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 3, MS + QUIET), "the forged frame holds the source back no longer");
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 4, 2 * MS + QUIET));
    }

    @Test
    void shouldResumeASilentSourcesStreamWithItsRepeatsKeptOutAfterAForgedLaunchTookOver() {
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 7, 0));
        assertEquals(DELIVER, filter.accept(1, 0, 99L, 1, 2 * QUIET), "the source was silent: a new launch is taken");
        assertEquals(STALE, filter.accept(1, 0, 10L, 8, 2 * QUIET + MS));
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 9, 3 * QUIET + MS), "the forged launch went quiet");
        assertEquals(DUPLICATE, filter.accept(1, 0, 10L, 7, 3 * QUIET + 2 * MS), "the resumed stream knows its frames");
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 10, 3 * QUIET + 3 * MS));
    }

    @Test
    void shouldCountTheFramesAGapSkipped() {
        filter.accept(1, 0, 10L, 1, 0);
        filter.accept(1, 0, 10L, 5, MS);
        filter.accept(1, 0, 10L, 6, 2 * MS);
        assertEquals(3, filter.skippedFrames());
    }

    @Test
    void shouldKeepABoundedNumberOfStreamsAndCountTheForgotten() {
        for (int tree = 0; tree < SequenceFilter.MAX_STREAMS + 10; tree++) {
            assertEquals(DELIVER, filter.accept(1, tree, 10L, 1, 0));
        }
        assertEquals(10, filter.evictedStreams());
    }

    /**
     * A genuine source sends every 10 ms while forged frames (random launch and seq) come at random times: every genuine
     * frame sent after the last forged frame was more than a quiet time ago is delivered, and none is delivered twice.
     */
    @Test
    void shouldDeliverEveryGenuineFrameOnceForgeriesStopHoldingItBack() {
        Random random = new Random(20261128L);
        for (int round = 0; round < 200; round++) {
            SequenceFilter filter = new SequenceFilter();
            Set<Long> delivered = new HashSet<>();
            long now = 0;
            long lastForged = Long.MIN_VALUE / 2;
            for (long seq = 1; seq <= 2_000; seq++) {
                now += 10 * MS;
                if (seq < 1_000 && random.nextInt(20) == 0) {
                    long incarnation = random.nextBoolean() ? 10L : random.nextLong();
                    long forgedSeq = random.nextBoolean() ? seq + random.nextInt(2 * (int) SequenceFilter.MAX_JUMP) : random.nextLong();
                    filter.accept(1, 0, incarnation, forgedSeq, now);
                    lastForged = now;
                }
                SequenceFilter.Verdict verdict = filter.accept(1, 0, 10L, seq, now);
                if (verdict == DELIVER) {
                    assertTrue(delivered.add(seq), "round " + round + ": frame " + seq + " delivered once");
                }
                if (now - lastForged > QUIET + 10 * MS) {
                    assertEquals(DELIVER, verdict, "round " + round + ": frame " + seq + ", the last forgery "
                                                   + (now - lastForged) / MS + " ms before");
                }
            }
        }
    }
}
