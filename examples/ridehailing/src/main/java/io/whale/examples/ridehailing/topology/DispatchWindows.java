package io.whale.examples.ridehailing.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.whale.examples.ridehailing.model.Match;

/**
 * The aggregator's dispatch windows, as a dispatcher runs them: an order is decided a fixed wait after it
 * reached the aggregator, with the answers in hand by then; an order nobody answered is decided unmatched.
 * Only matchers with a driver within the radius answer, so the aggregator cannot count answers to know
 * when it has all of them. Time is passed in (monotonic milliseconds); {@code T} is what the caller acks
 * or fails (a tuple), so this class holds no clock and no Storm type.
 *
 * <p>An answer may arrive before its order (they travel different edges); it is held, and the window
 * opens when the order arrives. Answers whose order never arrives within the message timeout are handed
 * back to be failed (the spout replays the order). An answer for an order already decided is late: it is
 * handed back to be acked and counted, and never reopens the order. A second answer of one matcher task
 * for an open order (a replay) is handed back to be acked.
 */
final class DispatchWindows<T> {
    /** One matcher task's qualified matches for an order: how many drivers are in the radius, and the nearest. */
    record Answer<T>(int matcherTask, int candidates, String driverId, double distanceMetres, T tuple) {
    }

    /** An order decided: the answers that were in hand and the best driver among them ({@link Match#NO_DRIVER} if none). */
    record Decision<T>(String orderId, T order, List<Answer<T>> answers) {
        Match best() {
            String best = Match.NO_DRIVER;
            double bestDistance = Double.POSITIVE_INFINITY;
            for (Answer<T> answer : answers) {
                if (Match.better(answer.distanceMetres(), answer.driverId(), bestDistance, best)) {
                    best = answer.driverId();
                    bestDistance = answer.distanceMetres();
                }
            }
            return new Match(orderId, best, bestDistance);
        }

        int candidates() {
            return answers.stream().mapToInt(Answer::candidates).sum();
        }

        /** The order and every answer: what the decision is anchored to, then acked. */
        List<T> tuples() {
            List<T> tuples = new ArrayList<>(answers.size() + 1);
            tuples.add(order);
            answers.forEach(a -> tuples.add(a.tuple()));
            return tuples;
        }
    }

    /** What became of an answer that was not held: the caller acks it either way. */
    enum Refusal { NONE, DUPLICATE, LATE }

    private static final class Pending<T> {
        final String orderId;
        final long firstSeenMillis;
        final Map<Integer, Answer<T>> answers = new LinkedHashMap<>();
        T order;
        long deadlineMillis;

        Pending(String orderId, long firstSeenMillis) {
            this.orderId = orderId;
            this.firstSeenMillis = firstSeenMillis;
        }
    }

    private final long waitMillis;
    private final long timeoutMillis;
    private final Map<String, Pending<T>> pending = new HashMap<>();
    /** Orders that arrived, by deadline: the wait is fixed and time is monotonic, so arrival order is deadline order. */
    private final ArrayDeque<Pending<T>> open = new ArrayDeque<>();
    /** Orders decided, by decision time, remembered for the message timeout so late answers are known as late. */
    private final LinkedHashMap<String, Long> decided = new LinkedHashMap<>();

    /**
     * @param waitMillis how long after its arrival an order is decided
     * @param timeoutMillis how long answers wait for their order, and decided orders are remembered (the message timeout)
     */
    DispatchWindows(long waitMillis, long timeoutMillis) {
        if (waitMillis < 1 || timeoutMillis <= waitMillis) {
            throw new IllegalArgumentException("the wait (" + waitMillis + " ms) must be at least 1 ms and below the timeout ("
                + timeoutMillis + " ms)");
        }
        this.waitMillis = waitMillis;
        this.timeoutMillis = timeoutMillis;
    }

    /** The order reached the aggregator at {@code nowMillis}; false when it is already open or decided (a replay: ack it). */
    boolean order(String orderId, T order, long nowMillis) {
        if (decided.containsKey(orderId)) {
            return false;
        }
        Pending<T> p = pending.computeIfAbsent(orderId, id -> new Pending<>(id, nowMillis));
        if (p.order != null) {
            return false;
        }
        p.order = order;
        p.deadlineMillis = nowMillis + waitMillis;
        open.addLast(p);
        return true;
    }

    /** An answer reached the aggregator at {@code nowMillis}; {@link Refusal#NONE} when it is held for its order's decision. */
    Refusal answer(String orderId, Answer<T> answer, long nowMillis) {
        if (decided.containsKey(orderId)) {
            return Refusal.LATE;
        }
        Pending<T> p = pending.computeIfAbsent(orderId, id -> new Pending<>(id, nowMillis));
        return p.answers.putIfAbsent(answer.matcherTask(), answer) == null ? Refusal.NONE : Refusal.DUPLICATE;
    }

    /** The orders whose wait has passed at {@code nowMillis}, in arrival order; each is decided once. */
    List<Decision<T>> decideDue(long nowMillis) {
        List<Decision<T>> due = new ArrayList<>();
        while (!open.isEmpty() && open.peekFirst().deadlineMillis <= nowMillis) {
            Pending<T> p = open.pollFirst();
            pending.remove(p.orderId);
            decided.put(p.orderId, nowMillis);
            due.add(new Decision<>(p.orderId, p.order, List.copyOf(p.answers.values())));
        }
        return due;
    }

    /**
     * Forgets what is older than the timeout at {@code nowMillis}: decided orders (an answer for one later than
     * that is held like any other and expires in turn), and answers whose order never arrived, which are
     * returned to be failed.
     */
    List<T> expire(long nowMillis) {
        for (Iterator<Long> it = decided.values().iterator(); it.hasNext() && nowMillis - it.next() > timeoutMillis; ) {
            it.remove();
        }
        List<T> orphaned = new ArrayList<>();
        for (Iterator<Pending<T>> it = pending.values().iterator(); it.hasNext(); ) {
            Pending<T> p = it.next();
            if (p.order == null && nowMillis - p.firstSeenMillis > timeoutMillis) {
                p.answers.values().forEach(a -> orphaned.add(a.tuple()));
                it.remove();
            }
        }
        return orphaned;
    }

    /** Orders open or answers waiting for their order. */
    int pendingOrders() {
        return pending.size();
    }
}
