package io.whale.multicast.control;

/**
 * One read of the source, what {@link LiveControl} decides from. Counts marked "since the last read" are what the
 * source did between two reads; the rest is its state now.
 *
 * @param nowNanos            when the read was taken
 * @param members             the members of the tree of the emit that took the read (the largest seen is n)
 * @param framesPerEmit       frames that emit built (one per child of the source)
 * @param deliveriesPerEmit   tuples those frames carried
 * @param emits               emits along trees since the last read (the arrivals λ is measured from)
 * @param queueLength         the source worker's transfer queue
 * @param unsentFrames        frames built and not yet handed on: they wait for a window ({@link ShapeSwitch})
 * @param inFlightTuples      tuples sent along trees and not yet credited
 * @param framesSent          frames handed on so far, in all
 * @param emitNanos           time the emits since the last read took on the source's CPU
 * @param emitFrames          frames those emits built
 * @param windowFull          since the last read a frame found its child's window full
 * @param credit              the look at the children's credit ({@link ShapeSwitch#lookAtCredit})
 * @param degree              the d* the trees are built for ({@link ShapeSwitch#degree()}; the largest int for auto)
 * @param switching           a switch is draining
 * @param landedDrainNanos    a switch landed since the last read after draining this long; -1 if none did
 */
public record ControlReading(long nowNanos, int members, int framesPerEmit, int deliveriesPerEmit, long emits,
                             int queueLength, long unsentFrames, long inFlightTuples, long framesSent,
                             long emitNanos, long emitFrames, boolean windowFull, ShapeSwitch.CreditLook<?> credit,
                             int degree, boolean switching, long landedDrainNanos) {
    /** No child owes credit. */
    public static final ShapeSwitch.CreditLook<Object> NO_CREDIT_OWED = new ShapeSwitch.CreditLook<>(null, Long.MAX_VALUE);
}
