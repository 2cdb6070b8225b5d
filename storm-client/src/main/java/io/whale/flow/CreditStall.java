package io.whale.flow;

import io.whale.config.WhaleConfig;
import io.whale.config.WhaleConfigValidation;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Whether a peer has stopped returning credit: something has waited for its credit, with none coming, for the bound
 * ({@link WhaleConfig#WOC_STALL_MS}). A partition is not a closed connection: TCP keeps it open and holds what was sent,
 * so without a bound a sender waiting for credit would wait as long as the partition lasts, and hold every other
 * destination of its emits with it. Stalled, the peer's frames are dropped and counted (the acker replays them), as
 * Storm's client drops what it cannot send; the peer's next credit (after a heal, TCP delivers what it held) ends it.
 *
 * <p>Pure, time passed in. Thread safe in the only way its callers need: a credit racing a wait can only start the
 * wait again later, never make it look older than it is.
 */
public final class CreditStall {
    private static final long NOT_WAITING = Long.MIN_VALUE;

    private final long boundNanos;
    private volatile long waitingSince = NOT_WAITING;

    /** A stall after {@code boundNanos} without credit; 0 waits for ever. */
    public CreditStall(long boundNanos) {
        if (boundNanos < 0) {
            throw new IllegalArgumentException("a stall bound is 0 (none) or more ns, not " + boundNanos);
        }
        this.boundNanos = boundNanos;
    }

    /** The bound of a topology: {@link WhaleConfig#WOC_STALL_MS}. */
    public static long boundNanos(Map<String, Object> topoConf) {
        return WhaleConfigValidation.intOr(topoConf, WhaleConfig.WOC_STALL_MS, WhaleConfig.Defaults.WOC_STALL_MS) * 1_000_000L;
    }

    /**
     * What a stalled peer may still be sent beyond its credit, in bytes, before what it is sent is dropped: the
     * topology's {@link WhaleConfig#WOC_STALL_BUFFER_BYTES}.
     */
    public static int bufferBytes(Map<String, Object> topoConf) {
        return WhaleConfigValidation.intOr(topoConf, WhaleConfig.WOC_STALL_BUFFER_BYTES, WhaleConfig.Defaults.WOC_STALL_BUFFER_BYTES);
    }

    /** Something waits for the peer's credit from {@code nowNanos} on, unless something already did. */
    public void waiting(long nowNanos) {
        if (boundNanos > 0 && waitingSince == NOT_WAITING) {
            waitingSince = nowNanos;
        }
    }

    /** As {@link #waiting(long)}, reading {@code nanoClock} only when nothing waited yet: once per credit at most. */
    public void waiting(LongSupplier nanoClock) {
        if (boundNanos > 0 && waitingSince == NOT_WAITING) {
            waitingSince = nanoClock.getAsLong();
        }
    }

    /** Credit came (or the wait ended otherwise): nothing has waited long. */
    public void credited() {
        if (waitingSince != NOT_WAITING) {
            waitingSince = NOT_WAITING;
        }
    }

    /** Whether something has waited, with no credit, for the bound; reads {@code nanoClock} only while something waits. */
    public boolean stalled(LongSupplier nanoClock) {
        long since = waitingSince;
        return since != NOT_WAITING && nanoClock.getAsLong() - since >= boundNanos;
    }
}
