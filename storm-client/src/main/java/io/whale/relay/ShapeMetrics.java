package io.whale.relay;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import io.whale.multicast.MD1Queue;
import io.whale.multicast.control.ShapeSwitch;
import org.apache.storm.Constants;
import org.apache.storm.metrics2.StormMetricRegistry;

/**
 * What the controller of a live tree sees and does, as worker metrics ({@code __system}, task -1): the epoch, d*,
 * λ, t_e, the transfer queue's length at the last sample and E(L) of the M/D/1 model for them, the tuples sent
 * along trees and not yet credited, the switches by direction and how long their drains took, how long the
 * controller held for a stalled child, and how long the queue last stayed above the waterline.
 */
final class ShapeMetrics {
    private final StormMetricRegistry registry;
    private final Counter switchesUp;
    private final Counter switchesDown;
    private final Counter drainMillis;
    private final Counter heldMillis;
    private volatile long lastDrainMillis;
    private volatile long lastAboveWaterlineMillis;

    ShapeMetrics(StormMetricRegistry registry, LiveShapes shaper) {
        this.registry = registry;
        this.switchesUp = counter("relay-switches-up");
        this.switchesDown = counter("relay-switches-down");
        this.drainMillis = counter("relay-switch-drain-ms");
        this.heldMillis = counter("relay-controller-held-ms");
        gauge("relay-tree-epoch", shaper::epoch);
        gauge("relay-max-outdegree", shaper::maxOutDegree);
        gauge("relay-input-rate", () -> shaper.stream().rate());
        gauge("relay-emit-ns", () -> shaper.queue().emitNanosPerReplica());
        gauge("relay-queue-length", () -> shaper.queue().currentLength());
        gauge("relay-expected-queue-length", () -> expectedQueueLength(shaper));
        gauge("relay-tuples-in-flight", shaper::inFlightTuples);
        gauge("relay-last-switch-drain-ms", () -> lastDrainMillis);
        gauge("relay-last-above-waterline-ms", () -> lastAboveWaterlineMillis);
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

    void switched(ShapeSwitch.Flip flip, boolean up) {
        (up ? switchesUp : switchesDown).inc();
        lastDrainMillis = flip.drainNanos() / 1_000_000;
        drainMillis.inc(lastDrainMillis);
    }

    /** The controller held for an interval of {@code millis}: a child of the source was stalled (no credit for long). */
    void held(long millis) {
        heldMillis.inc(millis);
    }

    /** The queue came back under the waterline after {@code aboveNanos} above it. */
    void backUnderWaterline(long aboveNanos) {
        lastAboveWaterlineMillis = aboveNanos / 1_000_000;
    }

    private Counter counter(String name) {
        return registry.counter(name, Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
    }

    private <T> void gauge(String name, Gauge<T> gauge) {
        registry.gauge(name, gauge, Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
    }
}
