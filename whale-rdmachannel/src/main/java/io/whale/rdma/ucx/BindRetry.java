package io.whale.rdma.ucx;

/**
 * When to try a listener's bind again after "Address already in use": doubling pauses from {@link #FIRST_PAUSE_MS}
 * up to {@link #MAX_PAUSE_MS}, while the next attempt still starts before the deadline. Time is passed in.
 */
final class BindRetry {
    static final long FIRST_PAUSE_MS = 20;
    static final long MAX_PAUSE_MS = 500;

    private final long deadlineMillis;
    private long pause = FIRST_PAUSE_MS;

    BindRetry(long startMillis, long timeoutMillis) {
        this.deadlineMillis = startMillis + timeoutMillis;
    }

    /** The pause before the next attempt, or -1 when the time is up. */
    long pauseAfterFailure(long nowMillis) {
        long next = Math.min(pause, MAX_PAUSE_MS);
        if (nowMillis + next > deadlineMillis) {
            return -1;
        }
        pause = Math.min(pause * 2, MAX_PAUSE_MS);
        return next;
    }
}
