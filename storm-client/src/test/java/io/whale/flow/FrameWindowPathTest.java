package io.whale.flow;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A {@link FrameWindow} on a simulated path, in steps of 0.1 ms with plain numbers: a sender that always has frames of
 * three tuples, a link that carries so many tuples a ms with a queue in front and 0.5 ms of propagation each way, and
 * a receiver that dispatches so many tuples a ms and credits each frame it dispatched. Either host may be held to a
 * CPU quota (a quarter core: it runs 25 ms of every 100 ms): the sender then sends and takes in credits, and the
 * receiver dispatches, only while its host runs.
 */
class FrameWindowPathTest {
    private static final long STEP_NANOS = 100_000L;
    private static final int STEPS_PER_MS = 10;
    private static final int FRAME_TUPLES = 3;
    private static final int PROPAGATION_STEPS = 5;
    private static final int SECONDS = 30;
    private static final int MEASURED_FROM_SECOND = 10;

    /** What the path carried over the measured seconds and the longest a frame queued at the link meanwhile. */
    private record Carried(double tuplesPerMs, double longestQueueMs) {
    }

    @Test
    void shouldCarryWhatAReceiverOnAQuarterCoreDispatchesWhileTheSenderRunsOnAQuarterCoreOutOfPhase() {
        // A round trip is then anything from a millisecond to a period, none of it queueing: sized from a frame timed
        // at the start of each burst, the window carried 0.66 tuples/ms of the 5 the receiver dispatches.
        SimulatedPath hosts = new SimulatedPath(Double.POSITIVE_INFINITY, 20, true, true);
        Carried fixed = hosts.carry(8192, 0);
        Carried sized = hosts.carry(8192, 50);
        assertTrue(fixed.tuplesPerMs() > 4.9, "a quarter of 20 tuples/ms: " + fixed);
        assertTrue(sized.tuplesPerMs() >= 0.95 * fixed.tuplesPerMs(), "sized " + sized + ", fixed " + fixed);
    }

    @Test
    void shouldQueueAboutTheTargetDelayOnALinkSlowerThanBothHosts() {
        SimulatedPath slowLink = new SimulatedPath(2, 20, false, false);
        Carried fixed = slowLink.carry(8192, 0);
        Carried sized = slowLink.carry(8192, 50);
        assertTrue(fixed.longestQueueMs() > 1000, "8,192 tuples at 2 a ms queue seconds: " + fixed);
        assertTrue(sized.tuplesPerMs() >= 0.95 * 2, "the link stays busy: " + sized);
        assertTrue(sized.longestQueueMs() <= 100, "about 50 ms of frames queue, not seconds: " + sized);
    }

    /**
     * @param linkTuplesPerMs what the link carries
     * @param dispatchTuplesPerMs what the receiver dispatches while it runs
     */
    private record SimulatedPath(double linkTuplesPerMs, double dispatchTuplesPerMs, boolean senderOnQuota, boolean receiverOnQuota) {
        /** Runs a window of {@code tuples} sized to a delay of {@code delayMs} (0: fixed) on this path, on the path's clock. */
        Carried carry(int tuples, int delayMs) {
            AtomicLong clock = new AtomicLong();
            FrameWindow window = new FrameWindow(tuples, delayMs, clock::get);
            window.onConnected();
            Deque<long[]> linkQueue = new ArrayDeque<>(); // {enqueued step, tuples}
            Deque<long[]> toReceiver = new ArrayDeque<>(); // {arrival step, tuples}
            Deque<long[]> toSender = new ArrayDeque<>(); // credits: {arrival step, tuples}
            double linkBudget = 0;
            double dispatchBudget = 0;
            long dispatched = 0;
            long dispatchedBefore = 0;
            long longestQueue = 0;
            long measuredFrom = MEASURED_FROM_SECOND * 1000L * STEPS_PER_MS;
            long steps = SECONDS * 1000L * STEPS_PER_MS;
            for (long step = 0; step < steps; step++) {
                clock.set(step * STEP_NANOS);
                if (!senderOnQuota || step % 1000 < 250) {
                    while (!toSender.isEmpty() && toSender.peekFirst()[0] <= step) {
                        window.credit((int) toSender.pollFirst()[1]);
                    }
                    for (int f = 0; f < 4 && window.tryAcquire(FRAME_TUPLES); f++) {
                        linkQueue.addLast(new long[] {step, FRAME_TUPLES});
                    }
                }
                linkBudget = Math.min(linkBudget + linkTuplesPerMs / STEPS_PER_MS, linkTuplesPerMs / STEPS_PER_MS + FRAME_TUPLES);
                while (!linkQueue.isEmpty() && linkBudget >= linkQueue.peekFirst()[1]) {
                    long[] frame = linkQueue.pollFirst();
                    linkBudget -= frame[1];
                    if (step >= measuredFrom) {
                        longestQueue = Math.max(longestQueue, step - frame[0]);
                    }
                    toReceiver.addLast(new long[] {step + PROPAGATION_STEPS, frame[1]});
                }
                if (!receiverOnQuota || (step + 500) % 1000 < 250) {
                    dispatchBudget = Math.min(dispatchBudget + dispatchTuplesPerMs / STEPS_PER_MS,
                        dispatchTuplesPerMs / STEPS_PER_MS + FRAME_TUPLES);
                    while (!toReceiver.isEmpty() && toReceiver.peekFirst()[0] <= step && dispatchBudget >= toReceiver.peekFirst()[1]) {
                        long[] frame = toReceiver.pollFirst();
                        dispatchBudget -= frame[1];
                        dispatched += frame[1];
                        toSender.addLast(new long[] {step + PROPAGATION_STEPS, frame[1]});
                    }
                }
                if (step == measuredFrom) {
                    dispatchedBefore = dispatched;
                }
            }
            return new Carried((dispatched - dispatchedBefore) / ((SECONDS - MEASURED_FROM_SECOND) * 1000.0),
                (double) longestQueue / STEPS_PER_MS);
        }
    }
}
