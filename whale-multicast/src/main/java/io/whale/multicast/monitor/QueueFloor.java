package io.whale.multicast.monitor;

/**
 * The lowest the source's queue was during a monitor interval, from the reads taken in it: what the controller takes
 * for l when the queue is read more often than the controller decides. A length read is taken to hold until the next
 * read, so an interval also starts at the last read before it. A burst that arrives and drains within the interval
 * leaves the floor where it was; a queue that does not drain raises it. (A Kafka spout's poll put 400 tuples on the
 * queue and they were gone 20 ms later: a rule that read the queue once per interval scaled the tree down on it, and
 * back up a second later, a dozen times a run.)
 *
 * <p>Pure: lengths passed in, one caller.
 */
public final class QueueFloor {
    private int last;
    private int lowest = Integer.MAX_VALUE;

    /** A read of the queue's length. */
    public void record(int length) {
        last = length;
        lowest = Math.min(lowest, length);
    }

    /** Closes the interval: the lowest length read in it or at its start (0 before any read); the next starts at the last read. */
    public int close() {
        int floor = Math.min(lowest, last);
        lowest = last;
        return floor;
    }
}
