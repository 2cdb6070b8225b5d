package io.whale.rdma.slicing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StreamSlicerTest {
    private static final long MS = 1_000_000;

    @Test
    void shouldCloseTheBatchWhenItReachesMaxMemorySize() {
        StreamSlicer slicer = new StreamSlicer(1000, MS);
        assertFalse(slicer.append(600, 0));
        assertTrue(slicer.append(400, 0));
        assertEquals(2, slicer.messages());
        assertEquals(1000, slicer.bytes());
    }

    @Test
    void shouldExpireWhenTheOldestMessageHasWaitedTheWaitTimeLimit() {
        StreamSlicer slicer = new StreamSlicer(1000, MS);
        slicer.append(10, 5 * MS);
        slicer.append(10, 5 * MS + MS / 2);
        assertEquals(6 * MS, slicer.deadline(), "counted from the oldest message, not the newest");
        assertFalse(slicer.expired(6 * MS - 1));
        assertTrue(slicer.expired(6 * MS));
    }

    @Test
    void shouldRestartTheTimerWhenAWorkRequestIsConsumed() {
        StreamSlicer slicer = new StreamSlicer(1000, MS);
        slicer.append(10, 0);
        slicer.onWorkRequestConsumed(MS * 7 / 10);
        assertEquals(MS * 17 / 10, slicer.deadline());
        assertFalse(slicer.expired(MS));
        assertTrue(slicer.expired(MS * 17 / 10));
    }

    @Test
    void shouldNotDelayALaterBatchForAConsumptionThatHappenedBeforeIt() {
        StreamSlicer slicer = new StreamSlicer(1000, MS);
        slicer.onWorkRequestConsumed(2 * MS);
        slicer.append(10, 3 * MS);
        assertEquals(4 * MS, slicer.deadline());
    }

    @Test
    void shouldNeverExpireAnEmptyBatchAndStartAgainAfterReset() {
        StreamSlicer slicer = new StreamSlicer(1000, MS);
        assertFalse(slicer.expired(Long.MAX_VALUE / 2));
        slicer.append(999, 0);
        slicer.reset();
        assertEquals(0, slicer.bytes());
        assertFalse(slicer.expired(10 * MS));
        assertFalse(slicer.append(999, 10 * MS), "the byte count restarted");
        assertEquals(11 * MS, slicer.deadline());
    }
}
