package io.whale.bench.paper;

import java.time.Duration;
import java.util.Optional;

/**
 * When the driver of a paper run stops waiting for its feed; pure, time passed in. Until the driver releases the feed
 * the topology has its start and the JIT wait; after that the feed must write an event (a change of phase, of window
 * or of rate step) at least every {@link FeedSchedule#longestStill}, with {@link #SLACK} for the feed's ticks and
 * offset reads on a loaded machine. One deadline for the whole schedule cannot be right: its drains last up to four
 * warm-ups and measurements each and its search takes as many probes as the verdicts ask, so a topology that drained
 * slowly on loaded cores overran one while its feed was still moving (CI of 2026-12-02, the quick run's live tree).
 */
final class FeedDeadline {
    static final Duration SLACK = Duration.ofSeconds(30);

    private final long startNanos;
    private final Duration start;
    private final Duration still;
    private boolean released;
    private long movedNanos;
    private String phase = FeedSchedule.Phase.STARTING.label();

    /**
     * @param start the topology's start and the JIT wait, until the feed is released
     * @param still the longest the feed's schedule may go without an event ({@link FeedSchedule#longestStill})
     */
    FeedDeadline(long nowNanos, Duration start, Duration still) {
        this.startNanos = nowNanos;
        this.start = start.plus(SLACK);
        this.still = still.plus(SLACK);
    }

    /** The driver released the feed into its schedule. */
    void released(long nowNanos) {
        released = true;
        movedNanos = nowNanos;
    }

    /** The feed wrote an event; {@code phase} is its label. */
    void moved(long nowNanos, String phase) {
        movedNanos = nowNanos;
        this.phase = phase;
    }

    /** Why the driver stops waiting now; empty while it waits on. */
    Optional<String> passed(long nowNanos) {
        if (!released) {
            return nowNanos - startNanos > start.toNanos()
                ? Optional.of("the topology did not start and warm up within " + start.toSeconds() + " s")
                : Optional.empty();
        }
        return nowNanos - movedNanos > still.toNanos()
            ? Optional.of("the feed's schedule stood still in its " + phase + " phase for more than " + still.toSeconds()
                + " s, longer than any of its phases lasts without an event")
            : Optional.empty();
    }
}
