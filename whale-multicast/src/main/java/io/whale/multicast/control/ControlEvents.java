package io.whale.multicast.control;

/**
 * What {@link LiveControl} saw, as it happens, for metrics and logs (the worker's) or a trace (the simulator's).
 * Called on the thread that hands the control its reads.
 */
public interface ControlEvents {
    ControlEvents NONE = new ControlEvents() {
    };

    /**
     * An interval of {@code intervalNanos} taken without a decision: {@code stalled} owed credit and returned none
     * for the stall bound; {@code first}: the first such interval of a hold.
     */
    default void held(ShapeSwitch.Waiting<?> stalled, long intervalNanos, boolean first) {
    }

    /** The first interval decided again after a hold of {@code heldNanos}. */
    default void resumed(long heldNanos) {
    }

    /** The source's backlog rose above the waterline: {@code length} tuples. */
    default void aboveWaterline(int length) {
    }

    /** The backlog is back under the waterline after {@code aboveNanos} above it, at most {@code peak} tuples. */
    default void backUnderWaterline(long aboveNanos, int peak) {
    }
}
