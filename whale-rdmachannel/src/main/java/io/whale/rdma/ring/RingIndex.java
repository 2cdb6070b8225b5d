package io.whale.rdma.ring;

/**
 * Head/tail arithmetic of the ring memory region. {@code head} and {@code tail} are byte counters that only grow
 * (a position in the region is {@code counter % capacity}); {@code head - tail} bytes are written and not yet
 * consumed by the receiver. A reservation is always contiguous in the region, because one READ fetches it: when
 * it does not fit before the end, the rest of the region is skipped as padding and it starts at offset 0. The
 * padding counts as used until the tail passes it (except in an empty ring, where the tail jumps over it).
 * Not thread-safe.
 */
public final class RingIndex {
    /** Returned by {@link #reserve} when the ring has not enough free space: the caller must wait or back off. */
    public static final long FULL = -1;

    private final int capacity;
    private long head;
    private long tail;

    public RingIndex(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
    }

    public int capacity() {
        return capacity;
    }

    public long head() {
        return head;
    }

    public long tail() {
        return tail;
    }

    /** Bytes written (including padding) and not yet released. */
    public long used() {
        return head - tail;
    }

    public int offsetOf(long counter) {
        return (int) Math.floorMod(counter, (long) capacity);
    }

    /** True when {@code length} bytes fit between the head and the end of the region without wrapping. */
    public boolean fitsBeforeEnd(int length) {
        return offsetOf(head) + (long) length <= capacity;
    }

    /**
     * True when the batch that starts at {@code batchStart} and ends at the head can grow by {@code length} bytes
     * and stay contiguous in the region. Unlike {@link #fitsBeforeEnd} this is false when the batch already ends
     * exactly at the end of the region (the head's offset is then 0, and the next bytes would land at the start).
     */
    public boolean batchCanGrow(long batchStart, int length) {
        return offsetOf(batchStart) + (head - batchStart) + length <= capacity;
    }

    /**
     * Reserves {@code length} contiguous bytes at the head.
     *
     * @return the counter of the first reserved byte, or {@link #FULL} when the bytes (plus any padding needed to
     *     wrap) would overwrite data the receiver has not released
     */
    public long reserve(int length) {
        if (length <= 0 || length > capacity) {
            throw new IllegalArgumentException("reservation of " + length + " bytes in a ring of " + capacity);
        }
        long padding = fitsBeforeEnd(length) ? 0 : capacity - offsetOf(head);
        boolean empty = head == tail;
        if (!empty && used() + padding + length > capacity) {
            return FULL;
        }
        long start = head + padding;
        if (empty) {
            tail = start; // nothing unconsumed: the skipped bytes protect nothing
        }
        head = start + length;
        return start;
    }

    /** Releases everything before {@code counter} (the end of the last consumed batch). */
    public void releaseTo(long counter) {
        if (counter < tail || counter > head) {
            throw new IllegalArgumentException("release to " + counter + " outside [tail=" + tail + ", head="
                    + head + "]");
        }
        tail = counter;
    }
}
