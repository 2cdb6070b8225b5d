package io.whale.relay;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Asks the worker to read its assignment and connect to the workers it names now, instead of at its next connection
 * refresh ({@code task.refresh.poll.secs}, 10 s), when a relay frame names a member this worker has no connection up
 * to or does not know: a worker that has just (re)joined a tree, which the source put in its trees from its own, newer
 * view of the assignment, while this worker still maps its tasks to the slot it died in. Until the refresh the member is sent around and its tuples are lost (replayed when acking is
 * on), so waiting for the periodic refresh cost a restarted worker up to 10 s of its tuples. At most once per
 * {@link #INTERVAL_NANOS}, so a member that stays unknown costs one assignment read per interval. Time passed in.
 */
final class ConnectOnDemand {
    static final long INTERVAL_NANOS = 500_000_000L;

    /** When the next refresh may be asked for; a request at once is allowed. */
    private final AtomicLong nextNanos;
    private volatile Runnable refresh = () -> { };

    ConnectOnDemand(long nowNanos) {
        this.nextNanos = new AtomicLong(nowNanos);
    }

    /** What reads the assignment and connects: the worker's connection refresh, on its own timer thread. */
    void refreshWith(Runnable refresh) {
        this.refresh = refresh;
    }

    /** Asks for a refresh at {@code nowNanos} unless one was asked within the interval; whether it asked. */
    boolean request(long nowNanos) {
        long next = nextNanos.get();
        if (nowNanos - next < 0 || !nextNanos.compareAndSet(next, nowNanos + INTERVAL_NANOS)) {
            return false;
        }
        refresh.run();
        return true;
    }
}
