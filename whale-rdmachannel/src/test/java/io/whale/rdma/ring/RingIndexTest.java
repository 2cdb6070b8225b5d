package io.whale.rdma.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RingIndexTest {

    @Test
    void shouldReserveContiguouslyUntilFull() {
        RingIndex ring = new RingIndex(100);
        assertEquals(0, ring.reserve(40));
        assertEquals(40, ring.reserve(40));
        assertEquals(RingIndex.FULL, ring.reserve(21));
        assertEquals(80, ring.reserve(20));
        assertEquals(100, ring.used());
    }

    @Test
    void shouldSkipTheEndOfTheRegionWhenAReservationWouldStraddleIt() {
        RingIndex ring = new RingIndex(100);
        ring.reserve(70);
        ring.reserve(10); // 70..79 stays unconsumed
        ring.releaseTo(70);
        long start = ring.reserve(40); // 20 bytes left before the end: padding, then offset 0
        assertEquals(100, start);
        assertEquals(0, ring.offsetOf(start));
        assertEquals(70, ring.used(), "10 unconsumed, 20 bytes of padding and 40 bytes of data");
    }

    @Test
    void shouldPreventTheHeadFromOvertakingTheTailAcrossTheWrapPoint() {
        RingIndex ring = new RingIndex(100);
        ring.reserve(60);
        ring.releaseTo(30); // offsets 30..59 are still unconsumed
        assertEquals(60, ring.reserve(30)); // 60..89
        assertEquals(RingIndex.FULL, ring.reserve(41), "10 bytes padding + 41 would reach offset 40");
        long wrapped = ring.reserve(20);
        assertEquals(100, wrapped, "skips 90..99 and starts again at offset 0");
        assertEquals(RingIndex.FULL, ring.reserve(11), "offsets 20..30 would overwrite unconsumed offset 30");
        assertEquals(120, ring.reserve(10));
        assertEquals(100, ring.used());
        assertEquals(RingIndex.FULL, ring.reserve(1));
    }

    @Test
    void shouldJumpTheTailOverThePaddingWhenTheRingIsEmpty() {
        RingIndex ring = new RingIndex(100);
        ring.reserve(70);
        ring.releaseTo(70);
        assertEquals(100, ring.reserve(100), "an empty ring takes its full capacity, whatever the head offset");
        assertEquals(100, ring.tail());
        assertEquals(100, ring.used());
    }

    @Test
    void shouldNotLetABatchThatEndsAtTheEndOfTheRegionGrowPastIt() {
        RingIndex ring = new RingIndex(100);
        ring.reserve(60);
        long batchStart = ring.reserve(20);
        assertTrue(ring.batchCanGrow(batchStart, 20), "80 + 20 ends exactly at the end");
        ring.reserve(20);
        ring.releaseTo(60);
        assertTrue(ring.fitsBeforeEnd(10), "the head is at offset 0 again");
        assertFalse(ring.batchCanGrow(batchStart, 10), "but the batch [60, 100) cannot continue at offset 0");
        assertTrue(ring.batchCanGrow(ring.head(), 10), "a new batch can start there");
    }

    @Test
    void shouldRejectReleasesOutsideTheWrittenRange() {
        RingIndex ring = new RingIndex(100);
        ring.reserve(10);
        assertThrows(IllegalArgumentException.class, () -> ring.releaseTo(11));
        ring.releaseTo(10);
        assertThrows(IllegalArgumentException.class, () -> ring.releaseTo(5));
    }

    @Test
    void shouldRejectReservationsLargerThanTheRing() {
        RingIndex ring = new RingIndex(100);
        assertThrows(IllegalArgumentException.class, () -> ring.reserve(101));
        assertThrows(IllegalArgumentException.class, () -> ring.reserve(0));
        assertTrue(ring.fitsBeforeEnd(100));
    }
}
