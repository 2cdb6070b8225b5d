package io.whale.relay;

import static io.whale.relay.SequenceFilter.Verdict.DELIVER;
import static io.whale.relay.SequenceFilter.Verdict.DUPLICATE;
import static io.whale.relay.SequenceFilter.Verdict.STALE_INCARNATION;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SequenceFilterTest {
    private final SequenceFilter filter = new SequenceFilter();

    @Test
    void shouldDropAFrameAtOrBelowTheLastDelivered() {
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 1));
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 2));
        assertEquals(DUPLICATE, filter.accept(1, 0, 10L, 2));
        assertEquals(DUPLICATE, filter.accept(1, 0, 10L, 1));
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 3));
    }

    @Test
    void shouldKeepSourcesAndTreesApart() {
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 5));
        assertEquals(DELIVER, filter.accept(2, 0, 10L, 1));
        assertEquals(DELIVER, filter.accept(1, 1, 10L, 1));
    }

    @Test
    void shouldIgnoreFramesOfAnEarlierLaunchOnceTheRestartedSourceIsHeard() {
        assertEquals(DELIVER, filter.accept(1, 0, 10L, 500));
        assertEquals(DELIVER, filter.accept(1, 0, 20L, 1));
        assertEquals(STALE_INCARNATION, filter.accept(1, 0, 10L, 501));
        assertEquals(DELIVER, filter.accept(1, 0, 20L, 2));
    }

    @Test
    void shouldCountTheFramesAGapSkipped() {
        filter.accept(1, 0, 10L, 1);
        filter.accept(1, 0, 10L, 5);
        filter.accept(1, 0, 10L, 6);
        assertEquals(3, filter.skippedFrames());
    }
}
