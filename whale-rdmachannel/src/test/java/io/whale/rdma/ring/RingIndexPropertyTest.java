package io.whale.rdma.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Head/tail laws checked against a simple model: the live reservations in FIFO order. Operations are positive
 * numbers (reserve that many bytes) or zero/negative numbers (release the oldest |n|+1 live reservations).
 */
class RingIndexPropertyTest {

    private record Span(long start, int length) {
        long end() {
            return start + length;
        }
    }

    @Property(tries = 300)
    void reservationsNeverOverlapUnreleasedBytesAndFailOnlyWhenSpaceIsShort(
            @ForAll @IntRange(min = 1, max = 4096) int capacity,
            @ForAll("operations") List<Integer> operations) {
        RingIndex ring = new RingIndex(capacity);
        ArrayDeque<Span> live = new ArrayDeque<>();
        for (int op : operations) {
            if (op > 0) {
                int length = 1 + (op - 1) % capacity;
                long headBefore = ring.head();
                long offset = Math.floorMod(headBefore, capacity);
                long padding = offset + length <= capacity ? 0 : capacity - offset;
                boolean fits = ring.used() == 0 || ring.used() + padding + length <= capacity;
                long start = ring.reserve(length);
                if (!fits) {
                    assertEquals(RingIndex.FULL, start, "must refuse when space is short");
                    assertEquals(headBefore, ring.head(), "a refused reservation changes nothing");
                    continue;
                }
                assertTrue(start >= 0, "must accept when space suffices");
                int startOffset = ring.offsetOf(start);
                assertTrue(startOffset + length <= capacity, "a reservation is contiguous in the region");
                for (Span other : live) {
                    assertTrue(!overlaps(capacity, start, length, other), "overwrites unconsumed " + other);
                }
                live.add(new Span(start, length));
            } else if (!live.isEmpty()) {
                int count = Math.min(live.size(), 1 - op);
                Span last = null;
                for (int i = 0; i < count; i++) {
                    last = live.poll();
                }
                ring.releaseTo(last.end());
            }
            assertTrue(ring.used() >= 0 && ring.used() <= capacity, "0 <= head - tail <= capacity");
            if (live.isEmpty()) {
                assertEquals(ring.head(), ring.tail(), "everything released: the ring is empty");
            }
            if (!live.isEmpty()) {
                assertTrue(live.peek().start() >= ring.tail(), "unconsumed data lies after the tail");
                assertEquals(ring.head(), live.peekLast().end(), "the head ends the newest reservation");
            }
        }
    }

    @Property(tries = 200)
    void aRingDrainedAfterEveryReservationAcceptsEveryFittingLength(
            @ForAll @IntRange(min = 1, max = 1000) int capacity,
            @ForAll("lengths") List<Integer> lengths) {
        RingIndex ring = new RingIndex(capacity);
        for (int raw : lengths) {
            int length = 1 + raw % capacity;
            long start = ring.reserve(length);
            assertTrue(start != RingIndex.FULL, "an empty ring takes any length up to its capacity");
            ring.releaseTo(ring.head());
            assertEquals(0, ring.used());
        }
    }

    /**
     * A sender's batching as ChannelSender does it: frames join the open batch while {@link RingIndex#batchCanGrow}
     * allows, a batch closes at {@code maxBatch} bytes or before it would pass the end of the region, and closed
     * batches are released in order. Every batch must be one contiguous span of the region (one READ).
     */
    @Property(tries = 300)
    void batchesBuiltWithBatchCanGrowAreContiguousInTheRegion(
            @ForAll @IntRange(min = 8, max = 4096) int capacity,
            @ForAll @IntRange(min = 1, max = 4096) int maxBatchBytes,
            @ForAll("lengths") List<Integer> frames) {
        RingIndex ring = new RingIndex(capacity);
        ArrayDeque<Span> closed = new ArrayDeque<>();
        long openStart = -1;
        for (int raw : frames) {
            int frame = 1 + raw % Math.max(1, capacity / 4);
            if (openStart >= 0 && !ring.batchCanGrow(openStart, frame)) {
                closed.add(close(capacity, openStart, ring.head()));
                openStart = -1;
            }
            long start = ring.reserve(frame);
            while (start == RingIndex.FULL) {
                if (closed.isEmpty()) {
                    closed.add(close(capacity, openStart, ring.head()));
                    openStart = -1;
                }
                ring.releaseTo(closed.poll().end());
                start = ring.reserve(frame);
            }
            if (openStart < 0) {
                openStart = start;
            }
            if (ring.head() - openStart >= Math.min(maxBatchBytes, capacity)) {
                closed.add(close(capacity, openStart, ring.head()));
                openStart = -1;
            }
        }
    }

    private static Span close(int capacity, long batchStart, long head) {
        Span batch = new Span(batchStart, (int) (head - batchStart));
        assertTrue(Math.floorMod(batch.start(), capacity) + batch.length() <= capacity,
            "batch " + batch + " runs over the end of a region of " + capacity + " bytes");
        return batch;
    }

    private static boolean overlaps(int capacity, long start, int length, Span other) {
        long a0 = Math.floorMod(start, capacity);
        long b0 = Math.floorMod(other.start(), capacity);
        return a0 < b0 + other.length() && b0 < a0 + length;
    }

    @Provide
    Arbitrary<List<Integer>> operations() {
        return Arbitraries.integers().between(-3, 5000).list().ofMaxSize(200);
    }

    @Provide
    Arbitrary<List<Integer>> lengths() {
        return Arbitraries.integers().between(0, 100_000).list().ofMaxSize(100);
    }
}
