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
        window.cancel(1);
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
    void unboundedWindowIsAlwaysOpen() {
        FrameWindow.UNBOUNDED.onConnected();
        for (int i = 0; i < 1_000; i++) {
            assertTrue(FrameWindow.UNBOUNDED.tryAcquire(1));
        }
        assertEquals(0, FrameWindow.UNBOUNDED.inFlight());
    }

    @Test
    void shouldReadTheWindowOfATopologyFromItsConf() {
        Map<String, Object> conf = new HashMap<>();
        assertSame(FrameWindow.UNBOUNDED, FrameWindow.forTopology(conf), "WOC off: no frames, no window");

        conf.put("whale.woc.enabled", true);
        assertEquals(FrameWindow.DEFAULT_CAPACITY, FrameWindow.forTopology(conf).capacity());
        conf.put("whale.woc.window.tuples", 16L);
        assertEquals(16, FrameWindow.forTopology(conf).capacity());
        conf.put("whale.woc.window.tuples", 0L);
        assertSame(FrameWindow.UNBOUNDED, FrameWindow.forTopology(conf));
    }

    @Test
    void shouldNameTheKeyOfABadWindow() {
        Map<String, Object> conf = new HashMap<>(Map.of("whale.woc.enabled", true, "whale.woc.window.tuples", "lots"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FrameWindow.forTopology(conf));
        assertTrue(e.getMessage().startsWith("whale.woc.window.tuples: \"lots\" (a string) is not accepted"), e.getMessage());
        conf.put("whale.woc.window.tuples", -1L);
        assertThrows(IllegalArgumentException.class, () -> FrameWindow.forTopology(conf));
    }

    private static FrameWindow connected(int capacity) {
        FrameWindow window = new FrameWindow(capacity);
        window.onConnected();
        return window;
    }
}
