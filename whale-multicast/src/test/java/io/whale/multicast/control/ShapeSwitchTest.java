package io.whale.multicast.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class ShapeSwitchTest {
    private final ShapeSwitch<String> shapes = new ShapeSwitch<>(4);

    @Test
    void shouldHoldFramesOfTheNewShapeUntilEveryFrameOfTheOldIsSentAndCredited() {
        assertTrue(shapes.register(0, 2));
        shapes.sent(0, "a", 8);
        assertTrue(shapes.request(2, 1_000));
        assertEquals(1, shapes.encodingEpoch());
        assertTrue(shapes.register(1, 1));

        assertFalse(shapes.mayLeave(1), "the new shape waits");
        assertTrue(shapes.mayLeave(0), "a frame built for the old shape still leaves");
        shapes.sent(0, "b", 4);
        assertNull(shapes.credited("a", 8, 2_000), "b has not credited yet");
        assertNull(shapes.tryFlip(2_500));
        ShapeSwitch.Flip flip = shapes.credited("b", 4, 3_000);

        assertEquals(new ShapeSwitch.Flip(1, 4, 2, 2_000), flip);
        assertTrue(shapes.mayLeave(1));
        assertFalse(shapes.switching());
        assertEquals(2, shapes.degree());
    }

    @Test
    void shouldTellTheLongestWaitForAChildsCreditSinceTheLastLookEndedOrNot() {
        assertEquals(new ShapeSwitch.CreditLook<>(null, Long.MAX_VALUE), shapes.lookAtCredit(0), "nobody owes");
        shapes.sent(0, "a", 8);
        assertEquals(new ShapeSwitch.CreditLook<>(new ShapeSwitch.Waiting<>("a", 8, 10, 0), 10), shapes.lookAtCredit(10));
        shapes.sent(0, "b", 8);
        assertEquals(new ShapeSwitch.CreditLook<>(new ShapeSwitch.Waiting<>("a", 8, 10, 10), 10), shapes.lookAtCredit(20),
            "b began owing later");

        shapes.credited("a", 2, 25);
        assertEquals(new ShapeSwitch.CreditLook<>(new ShapeSwitch.Waiting<>("a", 8, 10, 15), 20), shapes.lookAtCredit(30),
            "a's credit ended a wait of 15, longer than b's 10 so far; a owes 6 more and waits afresh from its credit");
        assertEquals(new ShapeSwitch.CreditLook<>(new ShapeSwitch.Waiting<>("b", 8, 20, 20), 20), shapes.lookAtCredit(40));

        shapes.credited("b", 8, 145);
        shapes.lost("a", 145);
        assertEquals(new ShapeSwitch.CreditLook<>(new ShapeSwitch.Waiting<>("b", 8, 20, 125), Long.MAX_VALUE),
            shapes.lookAtCredit(150), "b waited 125 before its credit, which came before this late look; a owes nothing once lost");
        shapes.sent(0, "b", 4);
        assertEquals(new ShapeSwitch.CreditLook<>(new ShapeSwitch.Waiting<>("b", 4, 160, 0), 160), shapes.lookAtCredit(160));
    }

    @Test
    void shouldNotFlipWhileAFrameOfTheOldShapeIsUnsent() {
        assertTrue(shapes.register(0, 1));
        assertTrue(shapes.request(1, 0));

        assertNull(shapes.tryFlip(10), "the old frame, built and parked, has not left");
        shapes.sent(0, "a", 3);
        assertNull(shapes.tryFlip(20));
        assertNotNull(shapes.credited("a", 3, 30));
    }

    @Test
    void shouldRefuseFramesBuiltForAShapeThatIsNoLongerBuilt() {
        assertTrue(shapes.request(2, 0));

        assertFalse(shapes.register(0, 1), "built before the switch began: build again for epoch 1");
        assertTrue(shapes.register(1, 1));
        assertEquals(-1, shapes.degreeOf(5));
        assertEquals(2, shapes.degreeOf(1));
        assertEquals(4, shapes.degreeOf(0));
    }

    @Test
    void shouldFlipAtOnceWhenNothingIsInFlight() {
        assertTrue(shapes.request(3, 100));

        assertEquals(new ShapeSwitch.Flip(1, 4, 3, 0), shapes.tryFlip(100));
    }

    @Test
    void shouldRefuseASecondSwitchWhilstOneIsPendingAndASwitchToTheSameBound() {
        assertFalse(shapes.request(4, 0), "already d* = 4");
        shapes.register(0, 1);
        assertTrue(shapes.request(2, 0));

        assertFalse(shapes.request(1, 0));
        assertEquals(1, shapes.encodingEpoch());
    }

    @Test
    void shouldStopWaitingForAChildWhoseConnectionWentDown() {
        shapes.register(0, 1);
        shapes.sent(0, "a", 5);
        shapes.request(2, 0);

        assertNotNull(shapes.lost("a", 40), "a's frames are counted lost by the relay; the switch goes on");
        assertEquals(0, shapes.inFlightTuples());
    }

    @Test
    void shouldTakeAStalledChildsLateCreditForWhatItOwedNotForItsLaterFrames() {
        shapes.register(0, 2);
        shapes.sent(0, "a", 5);
        assertNull(shapes.stalled("a", 10), "nothing asked for: no switch to complete");
        shapes.sent(0, "a", 3);
        shapes.request(2, 20);

        assertNull(shapes.credited("a", 5, 30), "a, slow, credits what it owed when it stalled: its later frame still waits");
        assertEquals(3, shapes.inFlightTuples());
        assertNotNull(shapes.credited("a", 3, 40));
    }

    @Test
    void shouldWaitForTheCreditOfALostChildsFramesSentOnToItsChildren() {
        shapes.register(0, 1);
        shapes.sent(0, "a", 5);
        shapes.request(2, 0);

        shapes.sentOn("b", 4); // a's frame, sent on to its child b before a is settled
        assertNull(shapes.lost("a", 40), "b has not credited the old shape's frame it was sent on");
        assertEquals(4, shapes.inFlightTuples());
        assertNotNull(shapes.credited("b", 4, 50));
    }

    @Test
    void shouldPutBackAFrameThatCouldNotBeHandedOnAfterAll() {
        shapes.register(0, 1);
        shapes.sent(0, "a", 6);
        shapes.request(2, 0);

        shapes.cancel(0, "a", 6);

        assertEquals(0, shapes.inFlightTuples());
        assertNull(shapes.tryFlip(5), "the frame waits, unsent, again");
        shapes.sent(0, "a", 6);
        assertNotNull(shapes.credited("a", 6, 9));
    }

    @Test
    void shouldNeverCountMoreCreditThanWasSent() {
        shapes.register(0, 1);
        shapes.sent(0, "a", 2);

        shapes.credited("a", 10, 0);
        shapes.credited("b", 10, 0);

        assertEquals(0, shapes.inFlightTuples());
        shapes.register(0, 1);
        shapes.sent(0, "a", 3);
        assertEquals(3, shapes.inFlightTuples());
    }

    /**
     * Any interleaving of three executors building and sending frames in their order, three children crediting
     * theirs in order, losing their connection or stalling (what they were sent settled, and credited late), and
     * switches asked for at random: no frame leaves while a frame of an earlier shape is unsent or in flight to a child
     * that has not stalled, and once everything is sent and credited nothing is left waiting.
     */
    @Property
    void shouldNeverLetANewShapeOvertakeAnOldOne(@ForAll @Size(max = 400) List<@IntRange(max = 71) Integer> steps) {
        ShapeSwitch<Integer> sw = new ShapeSwitch<>(8);
        List<Deque<Frame>> executors = List.of(new ArrayDeque<>(), new ArrayDeque<>(), new ArrayDeque<>());
        List<Deque<Frame>> inFlight = List.of(new ArrayDeque<>(), new ArrayDeque<>(), new ArrayDeque<>());
        List<Deque<Frame>> settled = List.of(new ArrayDeque<>(), new ArrayDeque<>(), new ArrayDeque<>());
        long now = 0;
        for (int step : steps) {
            now += 7;
            int who = step / 6 % 3;
            switch (step % 6) {
                case 0 -> {
                    int epoch = sw.encodingEpoch();
                    assertTrue(sw.register(epoch, 1));
                    executors.get(who).add(new Frame(epoch, step / 15 % 3, 1 + step % 4));
                }
                case 1 -> trySend(sw, executors, who, inFlight, now);
                case 2 -> credit(sw, who, settled, inFlight, now);
                case 3 -> sw.request(1 + step % 8, now);
                case 4 -> {
                    settled.get(who).addAll(inFlight.get(who));
                    inFlight.get(who).clear();
                    sw.stalled(who, now);
                }
                default -> {
                    settled.get(who).clear();
                    inFlight.get(who).clear();
                    sw.lost(who, now);
                }
            }
        }
        for (int round = 0; executors.stream().anyMatch(q -> !q.isEmpty()) || inFlight.stream().anyMatch(q -> !q.isEmpty())
            || settled.stream().anyMatch(q -> !q.isEmpty()); round++) {
            assertTrue(round < 10_000, "frames left waiting: " + executors);
            for (int executor = 0; executor < 3; executor++) {
                trySend(sw, executors, executor, inFlight, ++now);
            }
            for (int child = 0; child < 3; child++) {
                credit(sw, child, settled, inFlight, ++now);
            }
        }
        assertTrue(settled.stream().allMatch(Deque::isEmpty));
        assertEquals(0, sw.inFlightTuples());
    }

    /** {@code who} credits its oldest frame: one settled when it stalled, if any is left, else one in flight. */
    private static void credit(ShapeSwitch<Integer> sw, int who, List<Deque<Frame>> settled, List<Deque<Frame>> inFlight,
                               long now) {
        Frame credited = settled.get(who).isEmpty() ? inFlight.get(who).poll() : settled.get(who).poll();
        if (credited != null) {
            sw.credited(who, credited.tuples, now);
        }
    }

    private static void trySend(ShapeSwitch<Integer> sw, List<Deque<Frame>> executors, int who,
                                List<Deque<Frame>> inFlight, long now) {
        Deque<Frame> executor = executors.get(who);
        Frame head = executor.peek();
        if (head == null) {
            return;
        }
        sw.tryFlip(now);
        if (!sw.mayLeave(head.epoch)) {
            return;
        }
        List<Frame> outstanding = new ArrayList<>();
        inFlight.forEach(outstanding::addAll);
        executors.forEach(outstanding::addAll);
        assertTrue(outstanding.stream().allMatch(f -> f.epoch >= head.epoch),
            "a frame of epoch " + head.epoch + " left while these were unsent or in flight: " + outstanding);
        executor.poll();
        sw.sent(head.epoch, head.child, head.tuples);
        inFlight.get(head.child).add(head);
    }

    private record Frame(int epoch, int child, int tuples) {
    }
}
