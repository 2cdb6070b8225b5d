package io.whale.relay;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import io.whale.multicast.MD1Queue;
import io.whale.multicast.control.ShapeSwitch;
import io.whale.multicast.control.SwitchRequest;
import java.util.function.LongSupplier;
import org.apache.storm.Constants;
import org.apache.storm.metrics2.StormMetricRegistry;

/**
 * What the controller of a live tree sees and does, as worker metrics ({@code __system}, task -1): the epoch, d*,
 * λ, t_e, the transfer queue's length at the last sample and E(L) of the M/D/1 model for them, the tuples sent
 * along trees and not yet credited, the switches by direction and how long their drains took, how long the
 * controller held for a stalled child, and how long the queue last stayed above the waterline.
 *
 * <p>Its events are metrics too, so that a reader of the metrics (the benchmark's rate-step response, the cluster
 * tests) times them without reading log text: each kind is a counter (how many) and the wall-clock time of the
 * last one in epoch milliseconds, 0 before the first ({@code relay-last-switch-at-ms} with the last switch's
 * {@code relay-last-switch-from} and {@code -to}, 0 for the unbounded first shape; {@code
 * relay-above-waterline} with {@code relay-last-above-waterline-at-ms} and {@code relay-last-under-waterline-at-ms};
 * {@code relay-controller-holds}). A reader whose reports are further apart than two events of a kind sees the
 * counter rise by more than one: it knows how many it could not time.
 */
final class ShapeMetrics {
    private final StormMetricRegistry registry;
    private final Counter switchesUp;
    private final Counter switchesDown;
    private final Counter drainMillis;
    private final Counter switchesForced;
    private final Counter heldMillis;
    private final Counter holds;
    private final Counter aboveWaterline;
    private final LongSupplier wallMillis;
    private volatile long lastDrainMillis;
    private volatile long lastAboveWaterlineMillis;
    private volatile long lastSwitchAtMillis;
    private volatile long lastSwitchFrom;
    private volatile long lastSwitchTo;
    private volatile long lastAboveAtMillis;
    private volatile long lastUnderAtMillis;

    ShapeMetrics(StormMetricRegistry registry, LiveShapes shaper, LongSupplier wallMillis) {
        this.registry = registry;
        this.wallMillis = wallMillis;
        this.switchesUp = counter("relay-switches-up");
        this.switchesDown = counter("relay-switches-down");
        this.switchesForced = counter("relay-switches-forced");
        this.drainMillis = counter("relay-switch-drain-ms");
        this.heldMillis = counter("relay-controller-held-ms");
        this.holds = counter("relay-controller-holds");
        this.aboveWaterline = counter("relay-above-waterline");
        gauge("relay-tree-epoch", shaper::epoch);
        gauge("relay-max-outdegree", shaper::maxOutDegree);
        gauge("relay-input-rate", () -> shaper.stream().rate());
        gauge("relay-emit-ns", () -> shaper.queue().emitNanosPerReplica());
        gauge("relay-queue-length", () -> shaper.queue().currentLength());
        gauge("relay-expected-queue-length", () -> expectedQueueLength(shaper));
        gauge("relay-tuples-in-flight", shaper::inFlightTuples);
        gauge("relay-last-switch-drain-ms", () -> lastDrainMillis);
        gauge("relay-last-above-waterline-ms", () -> lastAboveWaterlineMillis);
        gauge("relay-last-switch-at-ms", () -> lastSwitchAtMillis);
        gauge("relay-last-switch-from", () -> lastSwitchFrom);
        gauge("relay-last-switch-to", () -> lastSwitchTo);
        gauge("relay-last-above-waterline-at-ms", () -> lastAboveAtMillis);
        gauge("relay-last-under-waterline-at-ms", () -> lastUnderAtMillis);
    }

    /** E(L) for the measured λ and t_e at the current d*; NaN before both are measured. */
    static double expectedQueueLength(LiveShapes shaper) {
        double lambda = shaper.stream().rate();
        double emitSeconds = shaper.queue().emitNanosPerReplica() * 1e-9;
        if (!(lambda >= 0) || !(emitSeconds > 0) || shaper.maxOutDegree() < 1) {
            return Double.NaN;
        }
        return MD1Queue.meanQueueLength(lambda, MD1Queue.serviceRate(shaper.maxOutDegree(), emitSeconds));
    }

    /** The trees flipped to {@code flip}'s shape, which {@code request} asked for. The figures before the counter. */
    void switched(ShapeSwitch.Flip flip, SwitchRequest request) {
        lastDrainMillis = flip.drainNanos() / 1_000_000;
        lastSwitchFrom = degree(flip.fromDegree());
        lastSwitchTo = degree(flip.toDegree());
        lastSwitchAtMillis = wallMillis.getAsLong();
        drainMillis.inc(lastDrainMillis);
        if (request.decision() == null) {
            switchesForced.inc();
        }
        (request.up() ? switchesUp : switchesDown).inc();
    }

    /** The controller held for an interval of {@code millis}: a child of the source was stalled (no credit for long). */
    void held(long millis, boolean first) {
        heldMillis.inc(millis);
        if (first) {
            holds.inc();
        }
    }

    void aboveWaterline() {
        lastAboveAtMillis = wallMillis.getAsLong();
        aboveWaterline.inc();
    }

    /** The queue came back under the waterline after {@code aboveNanos} above it. */
    void backUnderWaterline(long aboveNanos) {
        lastAboveWaterlineMillis = aboveNanos / 1_000_000;
        lastUnderAtMillis = wallMillis.getAsLong();
    }

    /** A shape's out-degree bound as a gauge: 0 for none (the first shape, which every degree fits). */
    private static long degree(int degree) {
        return degree == Integer.MAX_VALUE ? 0 : degree;
    }

    private Counter counter(String name) {
        return registry.counter(name, Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
    }

    private <T> void gauge(String name, Gauge<T> gauge) {
        registry.gauge(name, gauge, Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
    }
}
