package io.whale.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The per-connection frame window, with plain numbers. */
class FrameWindowTest {
    private static final long MS = 1_000_000L;

    private final AtomicLong now = new AtomicLong();

    @Test
    void shouldRefuseTheFrameBeyondCapacityUntilACreditReturns() {
        FrameWindow window = connected(3);
        assertTrue(window.tryAcquire(1));
        assertTrue(window.tryAcquire(1));
        assertTrue(window.tryAcquire(1));
        assertFalse(window.tryAcquire(1));
        assertEquals(3, window.inFlight());

        window.credit(2);
        assertEquals(1, window.inFlight());
        assertTrue(window.tryAcquire(1));
        assertTrue(window.tryAcquire(1));
        assertFalse(window.tryAcquire(1));
    }

    @Test
    void shouldTimeAFrameFromItsEmitUntilItsCreditOnTheWindowsClock() {
        FrameWindow window = new FrameWindow(8, 0, now::get);
        window.onConnected();
        List<Long> delivered = new ArrayList<>();
        EmitDelivery emit = new EmitDelivery(2 * MS, delivered::add);
        emit.frameBuilt();
        window.timeDelivery(emit, 3);
        emit.built(() -> 2 * MS);

        now.set(9 * MS);
        window.credit(3);
        assertEquals(List.of(7 * MS), delivered);
    }

    @Test
    void shouldNotTimeTheFramesInFlightWhenTheConnectionIsNewAgain() {
        FrameWindow window = connected(8);
        List<Long> delivered = new ArrayList<>();
        EmitDelivery emit = new EmitDelivery(0, delivered::add);
        emit.frameBuilt();
        window.timeDelivery(emit, 3);
        emit.built(() -> 0);

        window.onDisconnected();
        window.onConnected();
        window.credit(3);
        assertEquals(List.of(), delivered);
    }

    @Test
    void shouldCountTuplesAndAdmitAFrameWhileTheCountIsUnderCapacity() {
        FrameWindow window = connected(64);
        assertTrue(window.tryAcquire(32));
        assertTrue(window.tryAcquire(32));
        assertFalse(window.tryAcquire(2), "64 tuples in flight fill a window of 64");
        window.credit(1);
        assertTrue(window.tryAcquire(32), "under capacity, a frame goes even if it overshoots");
        assertEquals(95, window.inFlight());
    }

    @Test
    void shouldLetAFrameWiderThanTheWindowGoAlone() {
        FrameWindow window = connected(8);
        assertTrue(window.tryAcquire(100));
        assertFalse(window.tryAcquire(1));
        window.credit(100);
        assertTrue(window.tryAcquire(1));
    }

    @Test
    void shouldGiveBackTheRoomOfAFrameThatWasNotSent() {
        FrameWindow window = connected(1);
        assertTrue(window.tryAcquire(1));
        window.cancel(1, null);
        assertTrue(window.tryAcquire(1));
    }

    @Test
    void shouldNeverCountBelowZeroWhenCreditsOutnumberWhatItCounted() {
        FrameWindow window = connected(2);
        window.tryAcquire(1);
        window.credit(5);
        assertEquals(0, window.inFlight());
        assertTrue(window.tryAcquire(1));
        assertTrue(window.tryAcquire(1));
        assertFalse(window.tryAcquire(1), "excess credit does not widen the window");
    }

    @Test
    void shouldStayOpenAndCountNothingUntilTheConnectionIsUp() {
        FrameWindow window = new FrameWindow(1);
        for (int i = 0; i < 10; i++) {
            assertTrue(window.tryAcquire(1));
        }
        assertEquals(0, window.inFlight());
    }

    @Test
    void shouldOpenWhenTheConnectionDropsAndStartEmptyOnTheNextOne() {
        FrameWindow window = connected(1);
        window.tryAcquire(1);
        assertFalse(window.tryAcquire(1));

        window.onDisconnected();
        assertTrue(window.tryAcquire(1), "frames on a dead connection are dropped by the client, not held");
        assertEquals(0, window.inFlight());

        window.onConnected();
        assertTrue(window.tryAcquire(1));
        assertFalse(window.tryAcquire(1));
    }

    @Test
    void shouldStallOnceFullWithNoCreditForTheBound() {
        FrameWindow window = stallingAfter(1_000 * MS);
        assertTrue(window.tryAcquire(2));
        assertFalse(window.tryAcquire(1));

        assertFalse(window.refused(), "the first refusal starts the wait");
        now.set(999 * MS);
        assertFalse(window.refused());
        assertFalse(window.stalled());
        now.set(1_000 * MS);
        assertTrue(window.refused(), "full, with no credit, for the bound");
        assertTrue(window.stalled());

        creditAt(window, 1, 1_001 * MS);
        assertFalse(window.stalled(), "its next credit ends the stall");
        assertTrue(window.tryAcquire(1));
    }

    @Test
    void shouldSendAStalledWindowsFramesBeyondItUntilTheStallBufferIsSpent() {
        FrameWindow window = new FrameWindow(2, 0, 1_000 * MS, 250, now::get);
        window.onConnected();
        window.tryAcquire(2);
        window.refused();
        now.set(1_000 * MS);
        assertTrue(window.refused(), "stalled");

        assertTrue(window.overdraw(1, 100));
        assertTrue(window.overdraw(1, 100));
        assertTrue(window.overdraw(1, 100), "200 of 250 bytes sent beyond the window: one more frame still goes");
        assertFalse(window.overdraw(1, 100), "300 bytes: the buffer is spent, the caller drops the frame");
        assertEquals(5, window.inFlight(), "what went beyond the window is in flight and owes credit like the rest");
    }

    @Test
    void shouldRepayTheStallBufferOnceTheWindowHasRoomAgain() {
        FrameWindow window = new FrameWindow(2, 0, 1_000 * MS, 100, now::get);
        window.onConnected();
        window.tryAcquire(2);
        window.refused();
        now.set(1_000 * MS);
        window.refused();
        assertTrue(window.overdraw(2, 100));
        assertFalse(window.overdraw(1, 1), "spent");

        creditAt(window, 2, 1_100 * MS);
        assertFalse(window.tryAcquire(1), "the credit ended the stall, but 2 tuples are still in flight: no room yet");
        assertFalse(window.refused(), "not stalled: the frame waits for room, as before the silence");
        creditAt(window, 1, 1_200 * MS);
        assertTrue(window.tryAcquire(1), "room again");
        now.set(2_200 * MS);
        window.refused();
        assertTrue(window.stalled(), "a second silence");
        assertTrue(window.overdraw(1, 100), "the window had room between the silences: the buffer is whole again");
    }

    @Test
    void shouldDropAtOnceWhenStalledWithoutAStallBuffer() {
        FrameWindow window = stallingAfter(1_000 * MS);
        window.tryAcquire(2);
        window.refused();
        now.set(1_000 * MS);
        assertTrue(window.refused());
        assertFalse(window.overdraw(1, 1), "whale.woc.stall.buffer.bytes 0: every refused frame of a stalled window is dropped");
        assertEquals(2, window.inFlight());
    }

    @Test
    void shouldStartTheWaitAgainAfterEachCredit() {
        FrameWindow window = stallingAfter(1_000 * MS);
        window.tryAcquire(2);
        window.refused();
        creditAt(window, 1, 900 * MS);
        window.tryAcquire(1);

        now.set(950 * MS);
        assertFalse(window.refused(), "a credit 50 ms ago, a frame still in flight: the wait started at the credit");
        now.set(1_899 * MS);
        assertFalse(window.refused());
        now.set(1_900 * MS);
        assertTrue(window.refused());
    }

    @Test
    void shouldStallWithFramesInFlightAndNoCreditForTheBoundThoughTheWindowIsNotFull() {
        FrameWindow window = new FrameWindow(100, 0, 1_000 * MS, now::get);
        window.onConnected();
        assertTrue(window.tryAcquire(2));
        now.set(999 * MS);
        assertFalse(window.stalled());
        now.set(1_000 * MS);
        assertTrue(window.stalled(), "2 of 100 tuples in flight, no credit for the bound: a window sized up by a burst of "
            + "credit would take longer than a partition to fill");
        assertTrue(window.tryAcquire(1), "it still takes frames: only a refused frame is dropped");

        creditAt(window, 3, 1_001 * MS);
        assertFalse(window.stalled(), "its next credit ends the stall");
        now.set(60_000 * MS);
        assertFalse(window.stalled(), "nothing in flight: nothing waits for credit");
    }

    @Test
    void shouldCountFramesSentBeyondItInFlightUntilTheirCreditAndStallWithoutIt() {
        FrameWindow window = new FrameWindow(2, 0, 1_000 * MS, now::get);
        window.onConnected();
        window.sentBeyond(3);
        assertEquals(3, window.inFlight(), "a lost member's frames sent on here owe their credit");
        assertFalse(window.tryAcquire(1), "and take the window's room meanwhile");

        now.set(1_000 * MS);
        assertTrue(window.stalled(), "they wait for credit as any frame");
        creditAt(window, 3, 1_001 * MS);
        assertEquals(0, window.inFlight(), "their credit gives back what they took, nothing of another frame's");
        assertFalse(window.stalled());
        assertTrue(window.tryAcquire(1));
    }

    @Test
    void shouldBoundAStallToTwoSecondsUnlessTheTopologySaysOtherwise() {
        assertEquals(2_000 * MS, CreditStall.boundNanos(Map.of()), "a partition holds the other destinations at most 2 s");
        assertEquals(0, CreditStall.boundNanos(Map.of("whale.woc.stall.ms", 0)), "0: wait for credit for ever");
    }

    @Test
    void shouldBufferFourMebibytesOfAStalledDestinationsFramesUnlessTheTopologySaysOtherwise() {
        FrameWindow window = FrameWindow.forTopology(Map.of("whale.woc.enabled", true, "whale.woc.window.delay.ms", 0), now::get);
        window.onConnected();
        window.tryAcquire(FrameWindow.DEFAULT_CAPACITY);
        window.refused();
        now.set(2_000 * MS);
        assertTrue(window.refused());
        assertTrue(window.overdraw(1, 4 * 1024 * 1024 - 1));
        assertTrue(window.overdraw(1, 1), "one byte short of 4 MiB: one more frame goes");
        assertFalse(window.overdraw(1, 1));

        FrameWindow dropping = FrameWindow.forTopology(Map.of("whale.woc.enabled", true, "whale.woc.stall.buffer.bytes", 0), now::get);
        dropping.onConnected();
        dropping.tryAcquire(FrameWindow.DEFAULT_CAPACITY);
        dropping.refused();
        now.set(4_000 * MS);
        assertTrue(dropping.refused());
        assertFalse(dropping.overdraw(1, 1), "0: dropped at once");
    }

    @Test
    void shouldNeverStallWithoutABoundOrWhileTheConnectionIsDown() {
        FrameWindow unbounded = new FrameWindow(2, 0, now::get);
        unbounded.onConnected();
        unbounded.tryAcquire(2);
        unbounded.refused();
        now.set(3_600_000 * MS);
        assertFalse(unbounded.refused(), "stall bound 0: a full window waits for ever");

        FrameWindow window = stallingAfter(1_000 * MS);
        window.tryAcquire(2);
        window.refused();
        now.set(now.get() + 1_000 * MS);
        assertTrue(window.stalled());
        window.onDisconnected();
        assertFalse(window.stalled(), "a closed connection is Storm's client's to handle: it drops, counted");
        window.onConnected();
        assertFalse(window.stalled(), "a new connection starts with nothing in flight and nothing waiting");
    }

    @Test
    void unboundedWindowIsAlwaysOpen() {
        FrameWindow.UNBOUNDED.onConnected();
        for (int i = 0; i < 1_000; i++) {
            assertTrue(FrameWindow.UNBOUNDED.tryAcquire(1));
        }
        assertEquals(0, FrameWindow.UNBOUNDED.inFlight());
    }

    @Test
    void shouldShrinkToWhatItsPathDeliversOnceATimedFrameReturns() {
        FrameWindow window = new FrameWindow(8192, 50, now::get);
        window.onConnected();
        assertTrue(window.tryAcquire(200), "times this frame");
        assertTrue(acquireAt(window, 200, MS), "not timed: one frame at a time");
        creditAt(window, 200, 10 * MS);

        assertEquals(1200, window.sizedCapacity(), "20 tuples/ms x (10 ms + 50 ms)");
        creditAt(window, 200, 11 * MS);
        assertEquals(1200, window.sizedCapacity(), "the untimed frame's credit takes no sample");
        for (int i = 0; i < 6; i++) {
            assertTrue(acquireAt(window, 200, 12 * MS));
        }
        assertFalse(acquireAt(window, 1, 12 * MS), "1,200 tuples in flight fill the sized window");
    }

    @Test
    void shouldTakeAMembersBeatForLifeAndCountTheWaitFromIt() {
        FrameWindow window = stallingAfter(1_000 * MS);
        assertTrue(window.tryAcquire(2));
        now.set(900 * MS);
        window.alive();

        now.set(1_000 * MS);
        assertFalse(window.stalled(), "a beat 100 ms ago: the member waits for its child's credit, alive");
        now.set(1_899 * MS);
        assertFalse(window.stalled());
        now.set(1_900 * MS);
        assertTrue(window.stalled(), "neither credit nor beat for the bound since the beat");
        assertEquals(2, window.inFlight(), "a beat credits nothing");
    }

    @Test
    void shouldDrainTheQueueAndTimeTheNextFrameWhenThePathChanged() {
        FrameWindow window = new FrameWindow(8192, 50, now::get);
        window.onConnected();
        acquireAt(window, 200, 0);
        creditAt(window, 200, 10 * MS);
        assertTrue(acquireAt(window, 500, 11 * MS), "times this frame");

        window.pathChanged();
        assertEquals(200, window.sizedCapacity(), 1, "20 tuples/ms x 10 ms: what the path carries, without the delay");
        assertFalse(acquireAt(window, 10, 12 * MS), "500 tuples in flight: the queue drains first");
        creditAt(window, 500, 20 * MS);
        assertEquals(200, window.sizedCapacity(), 1, "the frame timed before the change takes no sample");

        assertTrue(acquireAt(window, 10, 21 * MS), "times this frame, behind an empty queue");
        creditAt(window, 10, 121 * MS);
        assertEquals(3000, window.sizedCapacity(), 1, "the highest rate, 20 tuples/ms, x (the new 100 ms + 50 ms)");
    }

    @Test
    void shouldKeepTheConfiguredWindowWhenNotSized() {
        FrameWindow window = connected(8192);
        window.tryAcquire(200);
        creditAt(window, 200, 10 * MS);
        assertEquals(8192, window.sizedCapacity());
    }

    @Test
    void shouldTakeNoSampleFromAFrameThatWasNotSent() {
        FrameWindow window = new FrameWindow(8192, 50, now::get);
        window.onConnected();
        window.tryAcquire(10);
        window.tryAcquire(10);
        window.cancel(10, null);
        creditAt(window, 10, 10 * MS);
        assertEquals(8192, window.sizedCapacity(), "a frame let out but not sent abandons the timing");

        acquireAt(window, 10, 200 * MS);
        creditAt(window, 10, 210 * MS);
        assertEquals(WindowSizer.FLOOR_TUPLES, window.sizedCapacity(), "the next frame is timed again: 1 tuple/ms x 60 ms");
    }

    @Test
    void shouldStartFromTheConfiguredWindowOnEachNewConnection() {
        FrameWindow window = new FrameWindow(8192, 50, now::get);
        window.onConnected();
        window.tryAcquire(10);
        creditAt(window, 10, 10 * MS);
        assertEquals(WindowSizer.FLOOR_TUPLES, window.sizedCapacity());
        window.onDisconnected();
        window.onConnected();
        assertEquals(8192, window.sizedCapacity());
    }

    @Test
    void shouldReadTheWindowOfATopologyFromItsConf() {
        Map<String, Object> conf = new HashMap<>();
        assertSame(FrameWindow.UNBOUNDED, FrameWindow.forTopology(conf), "WOC off: no frames, no window");

        conf.put("whale.woc.enabled", true);
        assertEquals(FrameWindow.DEFAULT_CAPACITY, FrameWindow.forTopology(conf).capacity());
        conf.put("whale.woc.window.tuples", 16L);
        assertEquals(16, FrameWindow.forTopology(conf).capacity());
        conf.put("whale.woc.window.tuples", 1000L);
        assertSized(FrameWindow.forTopology(conf, now::get), true);
        conf.put("whale.woc.window.delay.ms", 0L);
        assertSized(FrameWindow.forTopology(conf, now::get), false);
        conf.put("whale.woc.window.delay.ms", 20L);
        assertSized(FrameWindow.forTopology(conf, now::get), true);
        conf.put("whale.woc.window.tuples", 0L);
        conf.remove("whale.woc.window.delay.ms");
        assertSame(FrameWindow.UNBOUNDED, FrameWindow.forTopology(conf));
    }

    @Test
    void shouldNameTheKeyOfABadWindow() {
        Map<String, Object> conf = new HashMap<>(Map.of("whale.woc.enabled", true, "whale.woc.window.tuples", "lots"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FrameWindow.forTopology(conf));
        assertTrue(e.getMessage().startsWith("whale.woc.window.tuples: \"lots\" (a string) is not accepted"), e.getMessage());
        conf.put("whale.woc.window.tuples", -1L);
        assertThrows(IllegalArgumentException.class, () -> FrameWindow.forTopology(conf));
        conf.put("whale.woc.window.tuples", 16L);
        conf.put("whale.woc.window.delay.ms", "short");
        e = assertThrows(IllegalArgumentException.class, () -> FrameWindow.forTopology(conf));
        assertTrue(e.getMessage().startsWith("whale.woc.window.delay.ms: \"short\" (a string) is not accepted"), e.getMessage());
    }

    /** A window of 1,000 sized to its path shrinks on a slow one (1 tuple/ms) to the floor; a fixed one stays. */
    private void assertSized(FrameWindow window, boolean sized) {
        window.onConnected();
        acquireAt(window, 10, 0);
        creditAt(window, 10, 10 * MS);
        assertEquals(sized ? WindowSizer.FLOOR_TUPLES : 1000, window.sizedCapacity());
    }

    /** {@code window.tryAcquire(tuples)} with the clock at {@code nanos}. */
    private boolean acquireAt(FrameWindow window, int tuples, long nanos) {
        now.set(nanos);
        return window.tryAcquire(tuples);
    }

    /** {@code window.credit(tuples)} with the clock at {@code nanos}. */
    private void creditAt(FrameWindow window, int tuples, long nanos) {
        now.set(nanos);
        window.credit(tuples);
    }

    /** A connected window of 2 tuples, not sized, stalled after {@code boundNanos} on this test's clock. */
    private FrameWindow stallingAfter(long boundNanos) {
        FrameWindow window = new FrameWindow(2, 0, boundNanos, now::get);
        window.onConnected();
        return window;
    }

    private static FrameWindow connected(int capacity) {
        FrameWindow window = new FrameWindow(capacity);
        window.onConnected();
        return window;
    }
}
