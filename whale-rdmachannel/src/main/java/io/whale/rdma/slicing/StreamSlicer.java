package io.whale.rdma.slicing;

/**
 * Stream slicing (Whale §4): the open batch becomes a work request when it holds Max Memory Size bytes, or when
 * its oldest message has waited the Wait Time Limit. The wait is counted from the later of the oldest message's
 * arrival and the last consumption of a work request: the timer resets when a work request is consumed.
 * Times are in nanoseconds from any monotonic clock. Not thread-safe.
 */
public final class StreamSlicer {
    private static final long NONE = Long.MAX_VALUE;

    private final int maxMemorySize;
    private final long waitTimeLimitNanos;
    private int bytes;
    private int messages;
    private long oldestArrival;
    private long lastConsumed = Long.MIN_VALUE;

    public StreamSlicer(int maxMemorySize, long waitTimeLimitNanos) {
        this.maxMemorySize = maxMemorySize;
        this.waitTimeLimitNanos = waitTimeLimitNanos;
    }

    /** Counts a message of {@code length} bytes into the open batch; true when the batch is now full (MMS). */
    public boolean append(int length, long now) {
        if (messages == 0) {
            oldestArrival = now;
        }
        bytes += length;
        messages++;
        return bytes >= maxMemorySize;
    }

    /** The time at which the open batch must be sent, or {@link Long#MAX_VALUE} when it is empty. */
    public long deadline() {
        if (messages == 0) {
            return NONE;
        }
        long start = lastConsumed == Long.MIN_VALUE ? oldestArrival : Math.max(oldestArrival, lastConsumed);
        return start + waitTimeLimitNanos;
    }

    public boolean expired(long now) {
        return messages > 0 && now - deadline() >= 0;
    }

    /** A work request was consumed: restart the wait of the open batch from now. */
    public void onWorkRequestConsumed(long now) {
        lastConsumed = now;
    }

    /** The open batch was sent. */
    public void reset() {
        bytes = 0;
        messages = 0;
    }

    public int bytes() {
        return bytes;
    }

    public int messages() {
        return messages;
    }
}
