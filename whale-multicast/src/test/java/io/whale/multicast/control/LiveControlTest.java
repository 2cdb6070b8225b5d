package io.whale.multicast.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The live control law on plain numbers: reads every 10 ms, a 100-ms interval, seven members, Q = 1000. */
class LiveControlTest {
    private static final long MS = 1_000_000L;
    private static final int MEMBERS = 7;
    private static final int AUTO = Integer.MAX_VALUE;

    private final List<String> events = new ArrayList<>();
    private final ControlEvents recorded = new ControlEvents() {
        @Override
        public void held(ShapeSwitch.Waiting<?> stalled, long intervalNanos, boolean first) {
            events.add("held " + stalled.child() + (first ? " first" : ""));
        }

        @Override
        public void resumed(long heldNanos) {
            events.add("resumed after " + heldNanos / MS + " ms");
        }

        @Override
        public void aboveWaterline(int length) {
            events.add("above " + length);
        }

        @Override
        public void backUnderWaterline(long aboveNanos, int peak) {
            events.add("under after " + aboveNanos / MS + " ms, peak " + peak);
        }
    };
    private long now;

    private LiveControl control(long forcedSwitchMs) {
        return new LiveControl(LiveControlConfig.of(1000, 500, 0.5, 0.5, 100 * MS, 0.8, forcedSwitchMs * MS), 0, recorded);
    }

    /** A read 10 ms after the last: 5 emits of 3 frames (2 µs each), the transfer queue at {@code queue}. */
    private SwitchRequest read(LiveControl control, int queue, ShapeSwitch.CreditLook<?> credit, int degree,
                               boolean switching, long landedDrainNanos) {
        now += 10 * MS;
        return control.read(new ControlReading(now, MEMBERS, 3, 21, 5, queue, 0, 0, 0, 30_000, 15, false, credit,
                degree, switching, landedDrainNanos));
    }

    private SwitchRequest read(LiveControl control, int queue) {
        return read(control, queue, ControlReading.NO_CREDIT_OWED, AUTO, false, -1);
    }

    @Test
    void shouldAskForAScaleDownWhenTheQueueRisesThroughIntervals() {
        LiveControl control = control(0);
        SwitchRequest request = null;
        int reads = 0;
        for (int queue = 0; request == null && queue < 1000; queue += 20) {
            request = read(control, queue);
            reads++;
        }
        assertNotNull(request, "the queue rose through every interval");
        assertEquals(Direction.SCALE_DOWN, request.decision().direction());
        assertTrue(request.toDegree() < 3 && !request.up(), request.toString());
        assertTrue(reads <= 35, "within a few intervals: " + reads + " reads");
        assertTrue(request.reason().startsWith("SCALE_DOWN: queue "), request.reason());
    }

    @Test
    void shouldTakeTheLowestReadOfAnIntervalForTheQueue() {
        LiveControl control = control(0);
        for (int read = 0; read < 300; read++) {
            // a poll every 370 ms puts a few hundred tuples on the queue, gone within 30 ms
            int[] burst = {6, 33, 433, 135};
            assertNull(read(control, read % 37 < burst.length ? burst[read % 37] : 1 + read % 2), "read " + read);
        }
        assertTrue(control.queue().currentLength() <= 2, "l is the interval's floor: " + control.queue().currentLength());
    }

    @Test
    void shouldHoldWithoutDecidingWhileAChildOwesCreditPastTheStallBoundAndSayWhenItResumes() {
        LiveControl control = control(0);
        for (int read = 0; read < 10; read++) {
            read(control, 0);
        }
        long since = now - 490 * MS; // the child owes from 490 ms before the next read on
        for (int read = 0; read < 100; read++) {
            long waited = now + 10 * MS - since;
            ShapeSwitch.CreditLook<String> stalled = new ShapeSwitch.CreditLook<>(
                new ShapeSwitch.Waiting<>("b:6701", 21, since, waited), since);
            assertNull(read(control, 20 * read, stalled, AUTO, false, -1), "held at read " + read);
        }
        read(control, 0);
        for (int read = 0; read < 9; read++) {
            read(control, 0);
        }
        assertEquals("held b:6701 first", events.get(0), events.toString());
        assertTrue(events.stream().filter(e -> e.startsWith("held")).count() >= 5, events.toString());
        assertTrue(events.stream().anyMatch(e -> e.startsWith("resumed after ")), events.toString());
        assertTrue(events.contains("above 520"), events.toString());
    }

    @Test
    void shouldReportTheQueueBackUnderTheWaterlineAfterTenReadsUnderIt() {
        LiveControl control = control(0);
        read(control, 0);
        read(control, 600);
        read(control, 700);
        for (int read = 0; read < 9; read++) {
            read(control, 100);
        }
        assertEquals(List.of("above 600"), events);
        read(control, 100);
        assertEquals(List.of("above 600", "under after 20 ms, peak 700"), events);
    }

    @Test
    void shouldNotDecideWhileASwitchDrains() {
        LiveControl control = control(0);
        for (int queue = 0; queue < 1000; queue += 20) {
            assertNull(read(control, queue, ControlReading.NO_CREDIT_OWED, 2, true, -1));
        }
    }

    @Test
    void shouldNotScaleUpForAsManyIntervalsAsTheLandedSwitchDrained() {
        LiveControl scaledUp = control(0);
        LiveControl drained = control(0);
        int firstUp = -1;
        for (int read = 0; read < 400; read++) {
            // an idle queue on a chain: a scale-up once the rule has held three intervals
            long landed = read == 0 ? 1_500 * MS : -1;
            now -= 10 * MS;
            SwitchRequest withoutDrain = read(scaledUp, 0, ControlReading.NO_CREDIT_OWED, 1, false, -1);
            SwitchRequest afterDrain = read(drained, 0, ControlReading.NO_CREDIT_OWED, 1, false, landed);
            if (withoutDrain != null && firstUp < 0) {
                firstUp = read;
                assertNull(afterDrain, "the drained switch still holds scale-ups");
            }
            if (afterDrain != null) {
                assertTrue(afterDrain.up());
                assertTrue(read - firstUp >= 100, "15 intervals of 10 reads after the drain: read " + read);
                return;
            }
        }
        throw new AssertionError("no scale-up after the drain");
    }

    @Test
    void shouldAlternateBetweenAChainAndTheFullTreeWhenDrilled() {
        LiveControl control = control(20);
        List<Integer> asked = new ArrayList<>();
        int degree = AUTO;
        for (int read = 0; read < 20; read++) {
            SwitchRequest request = read(control, 0, ControlReading.NO_CREDIT_OWED, degree, false, -1);
            if (request != null) {
                asked.add(request.toDegree());
                assertNull(request.decision(), "a drill, not a decision");
                degree = request.toDegree();
            }
        }
        assertEquals(List.of(1, 3, 1, 3, 1, 3, 1, 3, 1, 3), asked);
    }
}
