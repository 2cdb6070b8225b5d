package io.whale.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.multicast.BinomialTreeBuilder;
import io.whale.multicast.MulticastTree;
import io.whale.multicast.SwitchingPlanner;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.junit.jupiter.api.Test;

class TreeShaperTest {
    private static final long MS = 1_000_000L;
    private static final int MEMBERS = 7;
    private static final NodeInfo CHILD = new NodeInfo("b", java.util.Set.of(6701L));

    private final AtomicLong now = new AtomicLong();
    private final AtomicInteger queue = new AtomicInteger();
    private final StormMetricRegistry registry = new StormMetricRegistry();

    private LiveShapes live(long forcedSwitchMs) {
        return live(10, forcedSwitchMs);
    }

    private LiveShapes live(long intervalMs, long forcedSwitchMs) {
        return (LiveShapes) TreeShaper.live(new ControllerSettings(1000, 500, 0.5, 0.5, intervalMs, 0.8, forcedSwitchMs), queue::get,
            now::get, registry);
    }

    /**
     * Three seconds of a Kafka spout at some 500 tuples/s, read every 10 ms: the queue holds a tuple or two, and every
     * 370 ms a poll puts a few hundred tuples on it that are gone within 30 ms (the pattern read in a worker).
     */
    private void pollBursts(TreeShaper shaper) {
        int[] burst = {6, 33, 433, 135};
        for (int read = 0; read < 300; read++) {
            interval(shaper, read % 37 < burst.length ? burst[read % 37] : 1 + read % 2);
        }
    }

    /** One interval: the clock moves on, the queue is {@code length}, and an emit (2 µs per child) ticks the controller. */
    private void interval(TreeShaper shaper, int length) {
        now.addAndGet(10 * MS);
        queue.set(length);
        shaper.emitted(MEMBERS, 3, 21, now.get() - 6_000);
    }

    /** One interval of 50 emits, the first of which ticks the controller; {@code windowFull}: a frame found its window full. */
    private void busyInterval(TreeShaper shaper, boolean windowFull) {
        now.addAndGet(10 * MS);
        if (windowFull) {
            shaper.windowFull();
        }
        for (int emit = 0; emit < 50; emit++) {
            shaper.emitted(MEMBERS, 3, 21, now.get() - 6_000);
        }
    }

    /**
     * Five intervals in which the transfer queue grows from empty towards its capacity (1,000) at 500 emits/s: a
     * scale-down, at five times the rate of {@link #interval} (which may then scale up again).
     */
    private void growQueueTowardsCapacity(TreeShaper shaper) {
        for (int length : new int[] {0, 0, 100, 400, 900}) {
            interval(shaper, length);
            for (int emit = 0; emit < 4; emit++) {
                shaper.emitted(MEMBERS, 3, 21, now.get() - 6_000);
            }
        }
    }

    private long counter(String name) {
        return registry.getRegistry().getCounters((key, metric) -> key.endsWith("-" + name)).values().iterator().next().getCount();
    }

    private long gauge(String name) {
        return ((Number) registry.getRegistry().getGauges((key, metric) -> key.endsWith("-" + name)).values().iterator().next()
            .getValue()).longValue();
    }

    @Test
    void shouldScaleDownWhenTheTransferQueueGrowsTowardsItsCapacity() {
        LiveShapes shaper = live(0);
        MulticastTree before = shaper.shape(0, MEMBERS);
        assertEquals(3, before.sourceOutDegree(), "auto starts from the binomial tree");

        growQueueTowardsCapacity(shaper);

        assertEquals(1, shaper.encodingEpoch());
        assertTrue(shaper.maxOutDegree() < 3, "d* came down: " + shaper.maxOutDegree());
        assertTrue(shaper.mayLeave(1), "nothing was in flight, so the new shape took over at once");
        assertEquals(1, counter("relay-switches-down"));
        assertEquals(0, counter("relay-switches-up"));
        assertEquals(shaper.maxOutDegree(), shaper.shape(1, MEMBERS).maxOutDegree());
    }

    @Test
    void shouldTimeEachSwitchAndWaterlineCrossingAsMetricsForReadersThatDoNotReadTheLog() {
        LiveShapes shaper = live(0);
        shaper.shape(0, MEMBERS);
        assertEquals(0, gauge("relay-last-switch-at-ms"), "no switch yet");
        long before = System.currentTimeMillis();

        growQueueTowardsCapacity(shaper);
        long switched = System.currentTimeMillis();
        assertEquals(1, counter("relay-switches-down"));
        assertTrue(gauge("relay-last-switch-at-ms") >= before && gauge("relay-last-switch-at-ms") <= switched,
            "the flip is timed by the wall clock: " + gauge("relay-last-switch-at-ms"));
        assertEquals(0, gauge("relay-last-switch-from"), "the first shape has no bound");
        assertEquals(shaper.maxOutDegree(), gauge("relay-last-switch-to"));

        for (int read = 0; read < 12; read++) {
            interval(shaper, 900);
        }
        for (int read = 0; read < 12; read++) {
            interval(shaper, 0);
        }
        assertEquals(1, counter("relay-above-waterline"));
        assertTrue(gauge("relay-last-above-waterline-at-ms") >= before && gauge("relay-last-above-waterline-at-ms") <= System.currentTimeMillis());
        assertTrue(gauge("relay-last-under-waterline-at-ms") >= gauge("relay-last-above-waterline-at-ms"),
            "back under after it rose above");
        assertEquals(0, counter("relay-switches-forced"));
    }

    @Test
    void shouldTellOnlyOnceTheNewShapeIsInUse() {
        LiveShapes shaper = live(0);
        AtomicInteger reshaped = new AtomicInteger();
        shaper.whenReshaped(reshaped::incrementAndGet);
        shaper.shape(0, MEMBERS);
        interval(shaper, 0);
        interval(shaper, 0);
        shaper.register(0, 3);
        shaper.sent(0, CHILD, 7);

        growQueueTowardsCapacity(shaper);
        assertEquals(1, shaper.encodingEpoch(), "a switch began");
        assertEquals(0, reshaped.get(), "a frame of the old shape is still in flight");

        shaper.sent(0, CHILD, 7);
        shaper.sent(0, CHILD, 7);
        shaper.credited(CHILD, 21);
        assertTrue(shaper.mayLeave(1));
        assertEquals(1, reshaped.get());
    }

    @Test
    void shouldNotScaleDownForPollBurstsThatDrainWithinAnInterval() {
        LiveShapes shaper = live(100, 0);
        shaper.shape(0, MEMBERS);
        pollBursts(shaper);
        assertEquals(0, shaper.encodingEpoch(), "the queue came back down within each 100 ms interval");
        assertEquals(0, counter("relay-switches-down"));
    }

    @Test
    void shouldScaleDownWhenTheQueueDoesNotDrainWithinAnInterval() {
        LiveShapes shaper = live(100, 0);
        shaper.shape(0, MEMBERS);
        int reads = 0;
        for (int length = 0; shaper.encodingEpoch() == 0 && length < 1000; length += 20) {
            interval(shaper, length); // 2,000 tuples/s more than the tree carries
            reads++;
        }
        assertEquals(1, shaper.encodingEpoch(), "the queue rose through every interval: scale down");
        assertTrue(reads <= 35, "within a few intervals of the growth: " + reads + " reads");
        assertEquals(1, counter("relay-switches-down"));
    }

    @Test
    void shouldScaleDownWhenTheBacklogGrowsInTheWindowsWhileFramesWaitAndTheTransferQueueStaysEmpty() {
        LiveShapes shaper = live(0);
        shaper.shape(0, MEMBERS);
        interval(shaper, 0);
        interval(shaper, 0);

        for (int emits : new int[] {100, 300, 300}) {
            shaper.register(0, 3 * emits + 3); // the last emit's frames wait: the window is full
            for (int frame = 0; frame < 3 * emits; frame++) {
                shaper.sent(0, CHILD, 7);
            }
            interval(shaper, 0);
        }

        assertEquals(1, shaper.encodingEpoch(), "700 emits' deliveries in flight and none credited: scale down");
        assertFalse(shaper.mayLeave(1), "once they are credited");
        for (int frame = 0; frame < 9; frame++) {
            shaper.sent(0, CHILD, 7); // the frames that waited leave along the old shape
        }
        shaper.credited(CHILD, 703 * 3 * 7);
        assertTrue(shaper.mayLeave(1));
        assertEquals(2, shaper.maxOutDegree());
        assertEquals(1, counter("relay-switches-down"));
    }

    @Test
    void shouldScaleUpAgainWhileFramesAreInFlightButNoneWaits() {
        LiveShapes shaper = live(0);
        shaper.shape(0, MEMBERS);
        growQueueTowardsCapacity(shaper);
        assertEquals(1, shaper.encodingEpoch(), "scaled down");
        int down = shaper.maxOutDegree();

        for (int i = 0; i < 10 && shaper.encodingEpoch() == 1; i++) {
            assertTrue(shaper.register(1, 3));
            assertTrue(shaper.mayLeave(1));
            for (int frame = 0; frame < 3; frame++) {
                shaper.sent(1, CHILD, 7);
            }
            interval(shaper, 0);
            shaper.credited(CHILD, 14); // a frame's tuples stay in flight from one interval to the next
            assertTrue(shaper.inFlightTuples() > 0);
        }

        assertEquals(2, shaper.encodingEpoch(), "a light load, nothing waiting, frames in flight: a switch up");
        shaper.credited(CHILD, (int) shaper.inFlightTuples());
        assertTrue(shaper.mayLeave(2), "the last frames credited, the new shape takes over");
        assertTrue(shaper.maxOutDegree() > down, "d* back up from " + down + ": " + shaper.maxOutDegree());
        assertEquals(1, counter("relay-switches-up"));
    }

    @Test
    void shouldNotScaleUpWhileFramesFindTheirWindowFullHoweverEmptyTheQueueLooks() {
        LiveShapes shaper = live(0);
        shaper.shape(0, MEMBERS);
        growQueueTowardsCapacity(shaper);
        assertEquals(1, shaper.encodingEpoch(), "scaled down");

        for (int i = 0; i < 20; i++) {
            shaper.windowFull(); // a deep tree at saturation: its window shut until credit came back through every hop
            interval(shaper, 0);
        }
        assertEquals(1, shaper.encodingEpoch(), "held by its window, not idle: no scale-up");

        for (int i = 0; i < 10 && shaper.encodingEpoch() == 1; i++) {
            interval(shaper, 0);
        }
        assertEquals(2, shaper.encodingEpoch(), "idle with the window open: a scale-up");
        assertEquals(1, counter("relay-switches-up"));
    }

    @Test
    void shouldScaleDownWhenFramesFindTheirWindowFullIntervalAfterIntervalThoughNothingQueuesInTheWorker() {
        LiveShapes shaper = live(0);
        shaper.shape(0, MEMBERS);
        for (int i = 0; i < 10; i++) {
            busyInterval(shaper, false); // 5,000 emits/s, the windows open: nothing queues
        }
        assertEquals(0, shaper.encodingEpoch());
        assertEquals(0, shaper.queue().currentLength());

        int intervals = 0;
        while (shaper.encodingEpoch() == 0 && intervals < 20) {
            busyInterval(shaper, true); // the windows shut each interval: the emitter is held, the backlog is before it
            intervals++;
        }
        assertEquals(1, shaper.encodingEpoch(), "held, some 50 arrivals an interval piled up before the source");
        assertTrue(intervals <= 10, "the backlog reaches the waterline (500) at 5,000/s within 100 ms: " + intervals);
        assertTrue(shaper.maxOutDegree() < 3);

        busyInterval(shaper, false);
        assertEquals(0, shaper.queue().currentLength(), "once no frame waits, nothing is held back");
    }

    @Test
    void shouldNotCountAWindowThatFilledNowAndThenAsAPileUp() {
        LiveShapes shaper = live(0);
        shaper.shape(0, MEMBERS);
        for (int i = 0; i < 30; i++) {
            busyInterval(shaper, i % 2 == 0); // a load the tree carries: a window fills now and then
        }
        assertEquals(0, shaper.encodingEpoch());
        assertTrue(shaper.queue().currentLength() <= 50, "one interval's arrivals at most: " + shaper.queue().currentLength());
    }

    @Test
    void shouldTimeAFrameByTheIntervalItsFramesWaitedThrough() {
        LiveShapes shaper = live(0);
        shaper.shape(0, MEMBERS);
        shaper.register(0, 100);
        interval(shaper, 0);
        for (int frame = 0; frame < 40; frame++) {
            shaper.sent(0, CHILD, 7);
        }
        interval(shaper, 0);

        assertEquals(0.8 * 2_000 + 0.2 * (10 * MS / 40.0), shaper.queue().emitNanosPerReplica(), 1.0,
            "the first interval built frames in 2 us each; in the second they waited all through and 40 left: 250 us"
                + " each, folded in with alpha 0.8");
    }

    @Test
    void shouldNeitherTimeFramesNorDecideWhileAChildThatOwesCreditReturnsNone() {
        LiveShapes shaper = live(0);
        shaper.shape(0, MEMBERS);
        interval(shaper, 0);
        assertTrue(shaper.register(0, 60));
        for (int i = 0; i < 52; i++) {
            shaper.sent(0, CHILD, 7); // a frame leaves now and then, and the child, still starting, credits nothing
            interval(shaper, 4 * i);
        }
        for (int length : new int[] {400, 900}) {
            shaper.sent(0, CHILD, 7);
            interval(shaper, length);
        }

        assertEquals(0, shaper.encodingEpoch(), "the queue grew while the child held the window: no decision");
        assertEquals(2_000, shaper.queue().emitNanosPerReplica(), 1.0,
            "t_e is still the 2 us a frame took to build, not the 10 ms between the frames the child let out");
        assertEquals(40, counter("relay-controller-held-ms"),
            "held from the first interval that ended 500 ms after the child began owing: four intervals");

        for (int length : new int[] {990, 1000}) {
            shaper.credited(CHILD, 7);
            shaper.sent(0, CHILD, 7);
            interval(shaper, length);
        }
        assertEquals(50, counter("relay-controller-held-ms"), "the interval whose credit ended the wait is held too");
        assertEquals(1, counter("relay-controller-holds"), "one hold of five intervals");
        assertEquals(1, shaper.encodingEpoch(), "the child credits again, and the growth is judged: scale down");
    }

    @Test
    void shouldMoveTheCurrentTreeWithTheSwitchingPlannerRatherThanRebuildIt() {
        LiveShapes shaper = live(10);
        MulticastTree before = shaper.shape(0, MEMBERS);

        interval(shaper, 0);

        assertEquals(new SwitchingPlanner().plan(before, 1).to(), shaper.shape(1, MEMBERS));
        assertNull(shaper.shape(0, MEMBERS), "epoch 0 is over: a frame being built for it is built again");
    }

    @Test
    void shouldNotScaleUpAfterADrainedScaleDownUntilTheNewShapeRanAsLongAsTheDrainTook() {
        LiveShapes shaper = live(0);
        shaper.shape(0, MEMBERS);
        assertTrue(shaper.register(0, 1));
        shaper.sent(0, CHILD, 4);
        growQueueTowardsCapacity(shaper);
        assertEquals(1, shaper.encodingEpoch(), "a scale-down began");
        now.addAndGet(500 * MS);
        shaper.credited(CHILD, 4);
        assertTrue(shaper.mayLeave(1), "landed");
        long drainIntervals = counter("relay-switch-drain-ms") / 10;
        assertTrue(drainIntervals >= 50, "drained for at least the 500 ms the credit took: " + drainIntervals + " intervals");

        interval(shaper, 0); // held: the child returned no credit for the 500 ms
        for (int i = 0; i < 3 + drainIntervals; i++) {
            interval(shaper, 0);
            assertEquals(1, shaper.encodingEpoch(), "the drain emptied the queue: no scale-up yet, interval " + i);
        }
        for (int i = 0; i < 3 && shaper.encodingEpoch() == 1; i++) {
            interval(shaper, 0);
        }
        assertEquals(2, shaper.encodingEpoch(), "idle for as long as the drain took, and confirmed: a switch up");
        assertEquals(10, counter("relay-controller-held-ms"));
        assertEquals(1, counter("relay-switches-up"));
    }

    @Test
    void shouldAlternateBetweenAChainAndTheFullTreeWhenForcedAndWaitForTheDrain() {
        LiveShapes shaper = live(10);
        shaper.shape(0, MEMBERS);
        assertTrue(shaper.register(0, 1));
        shaper.sent(0, CHILD, 4);

        interval(shaper, 0);
        assertEquals(1, shaper.encodingEpoch(), "a switch to the chain began");
        assertFalse(shaper.mayLeave(1), "four tuples of the old shape are still in flight");
        now.addAndGet(3 * MS);
        shaper.credited(CHILD, 4);
        assertTrue(shaper.mayLeave(1));
        assertEquals(1, shaper.maxOutDegree());
        assertEquals(1, counter("relay-switches-down"));
        assertEquals(3, counter("relay-switch-drain-ms"));
        assertEquals(1, gauge("relay-last-switch-to"));

        interval(shaper, 0);
        assertEquals(2, shaper.encodingEpoch());
        assertEquals(3, shaper.maxOutDegree(), "and back to the full tree");
        assertEquals(1, counter("relay-switches-up"));
        assertEquals(2, counter("relay-switches-forced"));
        assertEquals(1, gauge("relay-last-switch-from"));
        assertEquals(3, gauge("relay-last-switch-to"));
    }

    @Test
    void shouldForceSwitchesOnTheirOwnClockWhenItIsShorterThanAnInterval() {
        LiveShapes shaper = live(100, 20);
        shaper.shape(0, MEMBERS);
        for (int read = 0; read < 4; read++) {
            interval(shaper, 0);
        }
        assertEquals(2, shaper.encodingEpoch(), "a switch every 20 ms, though the controller's interval is 100 ms");
    }

    @Test
    void shouldTickTheControllerAtMostOncePerInterval() {
        LiveShapes shaper = live(10);
        shaper.shape(0, MEMBERS);
        now.addAndGet(10 * MS);
        for (int i = 0; i < 5; i++) {
            shaper.emitted(MEMBERS, 3, 21, now.get() - 6_000);
        }
        assertEquals(1, shaper.encodingEpoch(), "one forced switch, not five");
    }

    @Test
    void shouldKeepOneShapeAndNeverHoldAFrameWhenFixed() {
        TreeShaper shaper = TreeShaper.fixed(new BinomialTreeBuilder());

        assertEquals(new BinomialTreeBuilder().build(MEMBERS), shaper.shape(0, MEMBERS));
        assertTrue(shaper.register(0, 5));
        assertTrue(shaper.mayLeave(0));
        shaper.emitted(MEMBERS, 3, 21, now.get() - 6_000);
        assertEquals(0, shaper.encodingEpoch());
        assertFalse(shaper.isLive());
    }
}
