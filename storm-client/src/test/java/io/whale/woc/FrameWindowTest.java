package io.whale.woc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-connection frame window, with plain numbers. */
class FrameWindowTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldRefuseTheFrameBeyondCapacityUntilACreditReturns() {
        FrameWindow window = connected(3);
        assertTrue(window.tryAcquire(1, 0));
        assertTrue(window.tryAcquire(1, 0));
        assertTrue(window.tryAcquire(1, 0));
        assertFalse(window.tryAcquire(1, 0));
        assertEquals(3, window.inFlight());

        window.credit(2, 0);
        assertEquals(1, window.inFlight());
        assertTrue(window.tryAcquire(1, 0));
        assertTrue(window.tryAcquire(1, 0));
        assertFalse(window.tryAcquire(1, 0));
    }

    @Test
    void shouldCountTuplesAndAdmitAFrameWhileTheCountIsUnderCapacity() {
        FrameWindow window = connected(64);
        assertTrue(window.tryAcquire(32, 0));
        assertTrue(window.tryAcquire(32, 0));
        assertFalse(window.tryAcquire(2, 0), "64 tuples in flight fill a window of 64");
        window.credit(1, 0);
        assertTrue(window.tryAcquire(32, 0), "under capacity, a frame goes even if it overshoots");
        assertEquals(95, window.inFlight());
    }

    @Test
    void shouldLetAFrameWiderThanTheWindowGoAlone() {
        FrameWindow window = connected(8);
        assertTrue(window.tryAcquire(100, 0));
        assertFalse(window.tryAcquire(1, 0));
        window.credit(100, 0);
        assertTrue(window.tryAcquire(1, 0));
    }

    @Test
    void shouldGiveBackTheRoomOfAFrameThatWasNotSent() {
        FrameWindow window = connected(1);
        assertTrue(window.tryAcquire(1, 0));
        window.cancel(1);
        assertTrue(window.tryAcquire(1, 0));
    }

    @Test
    void shouldNeverCountBelowZeroWhenCreditsOutnumberWhatItCounted() {
        FrameWindow window = connected(2);
        window.tryAcquire(1, 0);
        window.credit(5, 0);
        assertEquals(0, window.inFlight());
        assertTrue(window.tryAcquire(1, 0));
        assertTrue(window.tryAcquire(1, 0));
        assertFalse(window.tryAcquire(1, 0), "excess credit does not widen the window");
    }

    @Test
    void shouldStayOpenAndCountNothingUntilTheConnectionIsUp() {
        FrameWindow window = new FrameWindow(1);
        for (int i = 0; i < 10; i++) {
            assertTrue(window.tryAcquire(1, 0));
        }
        assertEquals(0, window.inFlight());
    }

    @Test
    void shouldOpenWhenTheConnectionDropsAndStartEmptyOnTheNextOne() {
        FrameWindow window = connected(1);
        window.tryAcquire(1, 0);
        assertFalse(window.tryAcquire(1, 0));

        window.onDisconnected();
        assertTrue(window.tryAcquire(1, 0), "frames on a dead connection are dropped by the client, not held");
        assertEquals(0, window.inFlight());

        window.onConnected();
        assertTrue(window.tryAcquire(1, 0));
        assertFalse(window.tryAcquire(1, 0));
    }

    @Test
    void unboundedWindowIsAlwaysOpen() {
        FrameWindow.UNBOUNDED.onConnected();
        for (int i = 0; i < 1_000; i++) {
            assertTrue(FrameWindow.UNBOUNDED.tryAcquire(1, 0));
        }
        assertEquals(0, FrameWindow.UNBOUNDED.inFlight());
    }

    @Test
    void shouldShrinkToWhatItsPathDeliversOnceATimedFrameReturns() {
        FrameWindow window = new FrameWindow(8192, 50);
        window.onConnected();
        assertTrue(window.tryAcquire(200, 0), "times this frame");
        assertTrue(window.tryAcquire(200, MS), "not timed: one frame at a time");
        window.credit(200, 10 * MS);

        assertEquals(1200, window.sizedCapacity(), "20 tuples/ms x (10 ms + 50 ms)");
        window.credit(200, 11 * MS);
        assertEquals(1200, window.sizedCapacity(), "the untimed frame's credit takes no sample");
        for (int i = 0; i < 6; i++) {
            assertTrue(window.tryAcquire(200, 12 * MS));
        }
        assertFalse(window.tryAcquire(1, 12 * MS), "1,200 tuples in flight fill the sized window");
    }

    @Test
    void shouldKeepTheConfiguredWindowWhenNotSized() {
        FrameWindow window = connected(8192);
        window.tryAcquire(200, 0);
        window.credit(200, 10 * MS);
        assertEquals(8192, window.sizedCapacity());
    }

    @Test
    void shouldTakeNoSampleFromAFrameThatWasNotSent() {
        FrameWindow window = new FrameWindow(8192, 50);
        window.onConnected();
        window.tryAcquire(10, 0);
        window.tryAcquire(10, 0);
        window.cancel(10);
        window.credit(10, 10 * MS);
        assertEquals(8192, window.sizedCapacity(), "a frame let out but not sent abandons the timing");

        window.tryAcquire(10, 200 * MS);
        window.credit(10, 210 * MS);
        assertEquals(WindowSizer.FLOOR_TUPLES, window.sizedCapacity(), "the next frame is timed again: 1 tuple/ms x 60 ms");
    }

    @Test
    void shouldStartFromTheConfiguredWindowOnEachNewConnection() {
        FrameWindow window = new FrameWindow(8192, 50);
        window.onConnected();
        window.tryAcquire(10, 0);
        window.credit(10, 10 * MS);
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
        assertSized(FrameWindow.forTopology(conf), true);
        conf.put("whale.woc.window.delay.ms", 0L);
        assertSized(FrameWindow.forTopology(conf), false);
        conf.put("whale.woc.window.delay.ms", 20L);
        assertSized(FrameWindow.forTopology(conf), true);
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
    private static void assertSized(FrameWindow window, boolean sized) {
        window.onConnected();
        window.tryAcquire(10, 0);
        window.credit(10, 10 * MS);
        assertEquals(sized ? WindowSizer.FLOOR_TUPLES : 1000, window.sizedCapacity());
    }

    private static FrameWindow connected(int capacity) {
        FrameWindow window = new FrameWindow(capacity);
        window.onConnected();
        return window;
    }
}
