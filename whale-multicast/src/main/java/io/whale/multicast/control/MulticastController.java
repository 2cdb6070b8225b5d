package io.whale.multicast.control;

import io.whale.multicast.NonBlockingTreeBuilder;
import io.whale.multicast.OutDegreeBound;
import io.whale.multicast.monitor.QueueMonitor;
import io.whale.multicast.monitor.StreamMonitor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The queue-based self-adjusting controller (paper §3.3). Once per monitor interval it looks at the queue
 * length change l' → l, the input rate λ and the emit time t_e:
 * <ul>
 *   <li><b>Negative scale-down</b> when the queue grows, ΔL = l − l' &gt; 0, and ΔL / (l_w − l) ≥ T_down. Above the
 *       waterline the paper's ratio turns negative and would never fire, so there the headroom is Q − l instead.
 *       The new d* is min(d − 1, d*(λ, t_e)): at least one step down, further if the M/D/1 bound asks for it.</li>
 *   <li><b>Active scale-up</b> when the queue shrinks, ΔL = l' − l, with ΔL / l' ≥ T_up, or stays empty
 *       (l and l' at most {@link ControllerConfig#idleLength()}, a hundredth of the waterline, for the paper's 0). The new d* is the M/D/1 bound d*(λ, t_e), and only if it is larger than d: the queue rule
 *       says there is room, the model says how much.</li>
 * </ul>
 * Hysteresis: after any decision the controller holds for {@code holdIntervals}, and a scale-up needs
 * {@code scaleUpConfirmIntervals} consecutive intervals that satisfy its rule. Once a switch has landed
 * ({@link #landed}), no scale-up for as many intervals as the switch took to drain: the drain emptied the queue and
 * the windows, so the first intervals after it look idle whatever the load, and at a load no shape carries the
 * controller would otherwise scale up right after every scale-down and back (it flapped 1 → 2 → 1 four times in
 * fifteen seconds on a saturated link). The drain is the time scale of the backlog the old shape built. Degrees are compared as effective
 * out-degrees (min(d, ⌈log2(n+1)⌉)), so a decision is emitted only when the tree would change.
 *
 * <p>A scale-up does not go back to an out-degree the controller scaled down from within the last
 * {@link ControllerConfig#failureMemoryIntervals()} while λ is at least {@link #RETRY_RATE_SHARE} of the λ it failed at: that tree
 * did not carry that rate. That λ is the lowest of its scale-downs within that time, each taken at the lower of λ
 * then and the λ a wider tree failed at just before ({@link ControllerConfig#cascadeIntervals()}): λ read right after a scale-down is
 * the backlog leaving at the narrower tree's pace (819/s in a 480/s step, half a second after 3 → 2 at 543/s), which
 * would otherwise open the way back at once. t_e is what the source's CPU takes per frame unless frames wait, so a
 * narrower tree that carries the load with room to spare reads a model bound that a link-bound wider one does not
 * meet (on 8 hosts at 1 Mbit/s, at 480 orders/s, the source went 3 → 2 → 1 → 3 every 2–4 s, five times in 20 s).
 *
 * <p>Not thread-safe: one monitor thread drives it.
 */
public final class MulticastController {
    /** A scale-up to a degree scaled down from needs λ below this share of the λ it failed at. */
    public static final double RETRY_RATE_SHARE = 0.9;

    private final ControllerConfig config;
    private final int ceiling;
    /** The scale-downs from each out-degree (index) within the failure memory, oldest first. */
    private final List<ArrayDeque<Failure>> failures = new ArrayList<>();
    private long intervals;
    private int maxOutDegree;
    private int intervalsSinceDecision;
    private int scaleUpStreak;
    private int scaleUpHeldIntervals;

    public MulticastController(ControllerConfig config, int initialMaxOutDegree) {
        this.config = config;
        this.ceiling = NonBlockingTreeBuilder.effectiveOutDegree(config.destinations(), config.destinations());
        this.maxOutDegree = effective(initialMaxOutDegree);
        this.intervalsSinceDecision = config.holdIntervals();
        for (int degree = 0; degree <= ceiling; degree++) {
            failures.add(new ArrayDeque<>());
        }
    }

    /** A scale-down from a degree: the λ it failed at ({@link #recordFailure}) and when. */
    private record Failure(double rate, long interval) {
    }

    /**
     * Evaluates one interval from the monitors' latest samples; {@code windowBound}: the source's sends waited for an
     * end-to-end window in it (see {@link #onInterval(int, int, double, double, boolean)}).
     */
    public Optional<Decision> onInterval(QueueMonitor queue, StreamMonitor stream, boolean windowBound) {
        return onInterval(queue.previousLength(), queue.currentLength(), stream.rate(),
                queue.emitNanosPerReplica() * 1e-9, windowBound);
    }

    /** Evaluates one interval in which nothing waited for a window. */
    public Optional<Decision> onInterval(int previousLength, int length, double inputRate, double emitSeconds) {
        return onInterval(previousLength, length, inputRate, emitSeconds, false);
    }

    /**
     * Evaluates one interval.
     *
     * @param inputRate   λ in tuples per second, NaN if unknown
     * @param emitSeconds t_e in seconds, NaN if unknown (then each decision moves d* by one)
     * @param windowBound the source's sends waited in this interval for a window that only the receivers' credit
     *                    opens: it does not count towards a scale-up however short its queue looked, since such a
     *                    source is held by its tree's round trip, not idle, and more children would not make it
     *                    faster (a deep tree at saturation otherwise read an empty queue right after each credit
     *                    and went up and down every few seconds). A scale-down is judged as always.
     */
    public Optional<Decision> onInterval(int previousLength, int length, double inputRate, double emitSeconds,
                                         boolean windowBound) {
        intervals++;
        if (intervalsSinceDecision < config.holdIntervals()) {
            intervalsSinceDecision++;
            scaleUpStreak = 0;
            return Optional.empty();
        }
        if (isNegativeScaleDown(previousLength, length)) {
            scaleUpStreak = 0;
            int bound = modelBound(inputRate, emitSeconds, maxOutDegree - 1);
            int from = maxOutDegree;
            Optional<Decision> down = decide(Direction.SCALE_DOWN, Math.max(1, Math.min(maxOutDegree - 1, bound)),
                    previousLength, length, inputRate, emitSeconds);
            if (down.isPresent()) {
                recordFailure(from, inputRate);
            }
            return down;
        }
        if (scaleUpHeldIntervals > 0) {
            scaleUpHeldIntervals--;
            scaleUpStreak = 0;
            return Optional.empty();
        }
        scaleUpStreak = !windowBound && isActiveScaleUp(previousLength, length) ? scaleUpStreak + 1 : 0;
        if (scaleUpStreak >= config.scaleUpConfirmIntervals()) {
            int bound = notScaledDownFromAtThisRate(modelBound(inputRate, emitSeconds, maxOutDegree + 1), inputRate);
            if (bound > maxOutDegree) {
                scaleUpStreak = 0;
                return decide(Direction.SCALE_UP, bound, previousLength, length, inputRate, emitSeconds);
            }
        }
        return Optional.empty();
    }

    /**
     * The switch the last decision asked for has landed, after draining for {@code drainIntervals} monitor intervals
     * (in which the controller was not asked): the hold starts again, and no scale-up for that many intervals.
     */
    public void landed(int drainIntervals) {
        intervalsSinceDecision = 0;
        scaleUpStreak = 0;
        scaleUpHeldIntervals = Math.max(0, drainIntervals);
    }

    /**
     * An interval in which the source waited on a member that returned no credit (a worker still starting, or a slow
     * one), not asked: the queue then grew for that member, not for d*. A scale-up is confirmed afresh after it.
     */
    public void held() {
        scaleUpStreak = 0;
    }

    /** The current d*, as an effective out-degree. */
    public int maxOutDegree() {
        return maxOutDegree;
    }

    boolean isNegativeScaleDown(int previousLength, int length) {
        int growth = length - previousLength;
        if (growth <= 0) {
            return false;
        }
        int headroom = length < config.waterline() ? config.waterline() - length : config.queueCapacity() - length;
        return headroom <= 0 || growth >= config.scaleDownThreshold() * headroom;
    }

    boolean isActiveScaleUp(int previousLength, int length) {
        if (previousLength <= config.idleLength()) {
            return length <= config.idleLength();
        }
        int drop = previousLength - length;
        return drop > 0 && drop >= config.scaleUpThreshold() * previousLength;
    }

    /** The highest degree up to {@code bound} with none on the way from d* that recently failed at about {@code inputRate}. */
    private int notScaledDownFromAtThisRate(int bound, double inputRate) {
        for (int degree = maxOutDegree + 1; degree <= bound; degree++) {
            if (inputRate >= RETRY_RATE_SHARE * lowestFailureRate(degree, config.failureMemoryIntervals())) {
                return degree - 1;
            }
        }
        return bound;
    }

    /**
     * Remembers a scale-down from {@code degree} at {@code inputRate}, or at the lowest λ a wider tree failed at within
     * {@link ControllerConfig#cascadeIntervals()} if that is lower (one cascade under one load); nothing if λ is not known yet.
     */
    private void recordFailure(int degree, double inputRate) {
        double rate = inputRate;
        for (int wider = degree + 1; wider <= ceiling; wider++) {
            rate = Math.min(rate, lowestFailureRate(wider, config.cascadeIntervals()));
        }
        if (!Double.isNaN(rate)) {
            recent(degree).addLast(new Failure(rate, intervals));
        }
    }

    /** The scale-downs from {@code degree} within the failure memory; older ones are forgotten. */
    private ArrayDeque<Failure> recent(int degree) {
        ArrayDeque<Failure> recent = failures.get(degree);
        while (!recent.isEmpty() && intervals - recent.peekFirst().interval() > config.failureMemoryIntervals()) {
            recent.pollFirst();
        }
        return recent;
    }

    /** The lowest λ {@code degree} failed at within the last {@code withinIntervals}; infinity if it did not. */
    private double lowestFailureRate(int degree, int withinIntervals) {
        double lowest = Double.POSITIVE_INFINITY;
        for (Failure failure : recent(degree)) {
            if (intervals - failure.interval() <= withinIntervals) {
                lowest = Math.min(lowest, failure.rate());
            }
        }
        return lowest;
    }

    private int modelBound(double inputRate, double emitSeconds, int fallback) {
        if (!(inputRate >= 0) || !(emitSeconds > 0) || Double.isInfinite(inputRate)) {
            return effective(Math.max(1, fallback));
        }
        return effective(OutDegreeBound.maxOutDegree(inputRate, emitSeconds, config.queueCapacity(),
                config.destinations()));
    }

    private int effective(int degree) {
        return Math.min(Math.max(1, degree), ceiling);
    }

    private Optional<Decision> decide(Direction direction, int target, int previousLength, int length,
                                      double inputRate, double emitSeconds) {
        int to = effective(target);
        if (to == maxOutDegree) {
            return Optional.empty();
        }
        Decision decision = new Decision(direction, maxOutDegree, to, previousLength, length, inputRate,
                emitSeconds);
        maxOutDegree = to;
        intervalsSinceDecision = 0;
        return Optional.of(decision);
    }
}
