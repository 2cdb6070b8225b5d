package io.whale.examples.ridehailing.topology;

/**
 * When the decision clock strikes: every {@code periodMillis}, time passed in. A strike missed (the spout was not
 * called for a while) is not made up for: the next comes a period after the late one.
 */
final class DecisionClock {
    private final long periodMillis;
    private long nextMillis = Long.MIN_VALUE;

    DecisionClock(long periodMillis) {
        if (periodMillis < 1) {
            throw new IllegalArgumentException("a clock period of at least 1 ms, not " + periodMillis);
        }
        this.periodMillis = periodMillis;
    }

    /** Whether the clock strikes at {@code nowMillis}; when it does, the next strike is due a period later. */
    boolean strikes(long nowMillis) {
        if (nowMillis < nextMillis) {
            return false;
        }
        nextMillis = nowMillis + periodMillis;
        return true;
    }
}
