package io.whale.rdma.spi;

/**
 * A short, non-blocking check an engine's progress thread runs at every turn of its loop (a timer): it says when it
 * must run again, so that an idle thread can sleep until then instead of polling.
 */
@FunctionalInterface
public interface Poller {
    /** What {@link #poll} returns when nothing is due until something else wakes the thread. */
    long NO_DEADLINE = Long.MAX_VALUE;

    /**
     * Runs the check at {@code nowNanos} ({@link System#nanoTime}); returns the time by which it must run again, or
     * {@link #NO_DEADLINE}. Whoever later makes the deadline earlier calls {@link RdmaEngine#wake}.
     */
    long poll(long nowNanos);
}
