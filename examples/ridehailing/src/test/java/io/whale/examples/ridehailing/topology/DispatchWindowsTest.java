package io.whale.examples.ridehailing.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.whale.examples.ridehailing.model.Match;
import io.whale.examples.ridehailing.topology.DispatchWindows.Answer;
import io.whale.examples.ridehailing.topology.DispatchWindows.Decision;
import io.whale.examples.ridehailing.topology.DispatchWindows.Refusal;
import org.junit.jupiter.api.Test;

/** The dispatch windows on plain numbers: milliseconds for time, strings for the tuples. */
class DispatchWindowsTest {
    private static final long WAIT = 100;
    private static final long TIMEOUT = 30_000;

    private final DispatchWindows<String> windows = new DispatchWindows<>(WAIT, TIMEOUT);

    private static Answer<String> answer(int task, int candidates, String driver, double distance) {
        return new Answer<>(task, candidates, driver, distance, "answer-" + task);
    }

    @Test
    void shouldDecideAnOrderOnceItsWaitHasPassedWithTheNearestDriverInHand() {
        assertTrue(windows.order("o1", "order-o1", 1_000));
        assertEquals(Refusal.NONE, windows.answer("o1", answer(3, 2, "d7", 120.0), 1_020));
        assertEquals(Refusal.NONE, windows.answer("o1", answer(4, 1, "d2", 80.0), 1_050));

        assertEquals(List.of(), windows.decideDue(1_099));
        List<Decision<String>> due = windows.decideDue(1_100);

        assertEquals(1, due.size());
        assertEquals(new Match("o1", "d2", 80.0), due.get(0).best());
        assertEquals(3, due.get(0).candidates());
        assertEquals(List.of("order-o1", "answer-3", "answer-4"), due.get(0).tuples());
        assertEquals(List.of(), windows.decideDue(5_000), "an order is decided once");
    }

    @Test
    void shouldDecideAnOrderNobodyAnsweredAsUnmatched() {
        windows.order("o1", "order-o1", 0);

        Decision<String> decision = windows.decideDue(WAIT).get(0);

        assertFalse(decision.best().hasDriver());
        assertEquals(0, decision.candidates());
        assertEquals(List.of("order-o1"), decision.tuples());
    }

    @Test
    void shouldBreakATieOnDistanceToTheSmallestDriverIdWhateverTheArrivalOrder() {
        windows.order("o1", "order-o1", 0);
        windows.answer("o1", answer(1, 1, "d9", 50.0), 10);
        windows.answer("o1", answer(2, 1, "d3", 50.0), 20);

        assertEquals("d3", windows.decideDue(WAIT).get(0).best().driverId());
    }

    @Test
    void shouldHoldAnAnswerThatArrivesBeforeItsOrderAndStartTheWaitAtTheOrder() {
        assertEquals(Refusal.NONE, windows.answer("o1", answer(1, 1, "d1", 10.0), 0));
        assertEquals(List.of(), windows.decideDue(500), "no order yet, nothing to decide");

        windows.order("o1", "order-o1", 600);

        assertEquals(List.of(), windows.decideDue(600 + WAIT - 1));
        assertEquals("d1", windows.decideDue(600 + WAIT).get(0).best().driverId());
    }

    @Test
    void shouldCallAnAnswerAfterItsOrderWasDecidedLateAndNeverReopenTheOrder() {
        windows.order("o1", "order-o1", 0);
        windows.decideDue(WAIT);

        assertEquals(Refusal.LATE, windows.answer("o1", answer(1, 1, "d1", 10.0), WAIT + 5));
        assertEquals(0, windows.pendingOrders());
        assertEquals(List.of(), windows.expire(WAIT + TIMEOUT), "a late answer is not held to be failed later");
    }

    @Test
    void shouldRefuseASecondAnswerOfOneMatcherTaskAndAReplayedOrder() {
        windows.order("o1", "order-o1", 0);
        windows.answer("o1", answer(1, 1, "d1", 10.0), 1);

        assertEquals(Refusal.DUPLICATE, windows.answer("o1", answer(1, 1, "d1", 10.0), 2));
        assertFalse(windows.order("o1", "order-o1-again", 3));
        windows.decideDue(WAIT);
        assertFalse(windows.order("o1", "order-o1-replayed", WAIT + 1), "a decided order is not opened again");
    }

    @Test
    void shouldFailAnswersWhoseOrderNeverArrivesWithinTheTimeout() {
        windows.answer("o1", answer(1, 1, "d1", 10.0), 0);
        windows.answer("o1", answer(2, 1, "d2", 20.0), 5);

        assertEquals(List.of(), windows.expire(TIMEOUT));
        assertEquals(List.of("answer-1", "answer-2"), windows.expire(TIMEOUT + 1));
        assertEquals(0, windows.pendingOrders());
    }

    @Test
    void shouldForgetADecidedOrderAfterTheTimeout() {
        windows.order("o1", "order-o1", 0);
        windows.decideDue(WAIT);

        windows.expire(WAIT + TIMEOUT + 1);

        assertTrue(windows.order("o1", "order-o1-replayed", WAIT + TIMEOUT + 2));
    }

    @Test
    void shouldDecideDueOrdersInTheOrderTheyArrived() {
        windows.order("o2", "order-o2", 10);
        windows.order("o1", "order-o1", 20);
        windows.order("o3", "order-o3", 500);

        List<Decision<String>> due = windows.decideDue(200);

        assertEquals(List.of("o2", "o1"), due.stream().map(Decision::orderId).toList());
        assertEquals(1, windows.pendingOrders());
    }

    @Test
    void shouldRefuseAWaitThatIsNotBelowTheTimeout() {
        assertThrows(IllegalArgumentException.class, () -> new DispatchWindows<String>(0, TIMEOUT));
        assertThrows(IllegalArgumentException.class, () -> new DispatchWindows<String>(TIMEOUT, TIMEOUT));
    }
}
