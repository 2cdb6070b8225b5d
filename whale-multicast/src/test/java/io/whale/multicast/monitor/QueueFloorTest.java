package io.whale.multicast.monitor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class QueueFloorTest {
    @Test
    void shouldNotRaiseTheFloorForABurstThatDrainsWithinTheInterval() {
        QueueFloor floor = new QueueFloor();
        for (int length : new int[] {2, 2, 0, 2}) {
            floor.record(length);
        }
        assertEquals(0, floor.close());
        for (int length : new int[] {6, 33, 433, 135, 1}) {
            floor.record(length);
        }
        assertEquals(1, floor.close(), "400 tuples came and went within the interval");
    }

    @Test
    void shouldRaiseTheFloorForAQueueThatDoesNotDrain() {
        QueueFloor floor = new QueueFloor();
        for (int length : new int[] {0, 40, 90}) {
            floor.record(length);
        }
        assertEquals(0, floor.close());
        for (int length : new int[] {150, 210, 260}) {
            floor.record(length);
        }
        assertEquals(90, floor.close(), "the interval started where the last one ended");
        floor.record(320);
        assertEquals(260, floor.close());
    }

    @Test
    void shouldTakeTheQueueToHoldItsLastLengthThroughAnIntervalWithoutARead() {
        QueueFloor floor = new QueueFloor();
        assertEquals(0, floor.close(), "nothing read yet");
        floor.record(44);
        assertEquals(0, floor.close());
        assertEquals(44, floor.close(), "no read: the queue is taken to be where it was last read");
        floor.record(198);
        assertEquals(44, floor.close(), "a source held for a whole interval read once, high, at its end: it was 44 before");
    }
}
