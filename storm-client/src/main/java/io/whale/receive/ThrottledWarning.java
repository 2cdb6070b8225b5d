package io.whale.receive;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides which occurrences of a repeated warning to log: at most one per interval, each logged one carrying how
 * many went unlogged since the last. Time is passed in; safe to call from several receiving threads.
 */
final class ThrottledWarning {
    /** What {@link #occurred} returns for an occurrence not to be logged. */
    static final long SUPPRESS = -1;

    private final long intervalNanos;
    private final AtomicLong nextLogNanos;
    private final AtomicLong unlogged = new AtomicLong();

    ThrottledWarning(long intervalNanos, long nowNanos) {
        this.intervalNanos = intervalNanos;
        this.nextLogNanos = new AtomicLong(nowNanos);
    }

    /** Records an occurrence at {@code nowNanos}: {@link #SUPPRESS}, or the number unlogged since the last log. */
    long occurred(long nowNanos) {
        long next = nextLogNanos.get();
        if (nowNanos - next >= 0 && nextLogNanos.compareAndSet(next, nowNanos + intervalNanos)) {
            return unlogged.getAndSet(0);
        }
        unlogged.incrementAndGet();
        return SUPPRESS;
    }
}
