package io.whale.multicast.sim;

import io.whale.multicast.MulticastStructure;
import io.whale.multicast.control.ControllerConfig;
import io.whale.multicast.control.LiveControlConfig;

/**
 * One simulated run.
 *
 * @param destinations         n, the relay nodes the source multicasts to
 * @param structure            the tree shape; a non-blocking tree starts with {@code initialMaxOutDegree}
 * @param initialMaxOutDegree  d* of the first non-blocking tree
 * @param emitNanos            t_e, the time a node needs per copy it sends
 * @param hopNanos             wire latency added to every hop (0 models t_e as the whole hop)
 * @param queueCapacity        Q, the transfer queue capacity of every node, in tuples
 * @param rate                 λ(t), Poisson arrivals
 * @param durationNanos        arrivals are generated in [0, duration)
 * @param monitorIntervalNanos Δt of the monitors and the controller
 * @param rateAlpha            α of the input-rate smoothing
 * @param controller           the self-adjusting controller's settings, or null for a fixed tree
 * @param switchFixedNanos     switching delay: a fixed part (status and control messages, ACKs) ...
 * @param switchPerMoveNanos   ... plus this much per move; the source emits nothing while switching
 * @param bucketNanos          width of the time-series buckets in the result
 * @param seed                 seed of the arrival process; the same config gives the same result
 */
public record SimulationConfig(int destinations, MulticastStructure structure, int initialMaxOutDegree,
                               long emitNanos, long hopNanos, int queueCapacity, RateProfile rate,
                               long durationNanos, long monitorIntervalNanos, double rateAlpha,
                               ControllerConfig controller, long switchFixedNanos, long switchPerMoveNanos,
                               long bucketNanos, long seed) {
    public SimulationConfig {
        if (destinations < 1 || emitNanos <= 0 || hopNanos < 0 || queueCapacity < 1 || durationNanos <= 0
                || monitorIntervalNanos <= 0 || bucketNanos <= 0 || switchFixedNanos < 0 || switchPerMoveNanos < 0) {
            throw new IllegalArgumentException("invalid simulation config " + this);
        }
        if (controller != null && structure != MulticastStructure.NONBLOCKING) {
            throw new IllegalArgumentException("only the non-blocking tree is re-shaped by the controller");
        }
    }

    /** A fixed tree under a constant rate, monitors every 10 ms, 100 ms buckets. */
    public static SimulationConfig fixed(int destinations, MulticastStructure structure, int maxOutDegree,
                                         long emitNanos, int queueCapacity, double rate, long durationNanos,
                                         long seed) {
        return new SimulationConfig(destinations, structure, maxOutDegree, emitNanos, 0, queueCapacity,
                RateProfile.constant(rate), durationNanos, 10_000_000L, 0.8, null, 0, 0, 100_000_000L, seed);
    }

    /**
     * The control law's settings: the controller's (the defaults for n and Q when the tree is fixed, which only
     * reports the monitors), its memories turned into time at Δt, and the workers' tuned constants.
     */
    public LiveControlConfig liveControl() {
        ControllerConfig c = controller != null ? controller : ControllerConfig.defaults(destinations, queueCapacity);
        return new LiveControlConfig(c.queueCapacity(), c.waterline(), c.scaleUpThreshold(), c.scaleDownThreshold(),
                monitorIntervalNanos, rateAlpha, 0, LiveControlConfig.READ_NANOS, c.holdIntervals(),
                c.scaleUpConfirmIntervals(), c.failureMemoryIntervals() * monitorIntervalNanos,
                c.cascadeIntervals() * monitorIntervalNanos, LiveControlConfig.RATE_OUTLIER_FACTOR,
                LiveControlConfig.WATERLINE_CONFIRM_READS, LiveControlConfig.STALL_NANOS);
    }

    public SimulationConfig withController(ControllerConfig controllerConfig, long fixedNanos, long perMoveNanos) {
        return new SimulationConfig(destinations, MulticastStructure.NONBLOCKING, initialMaxOutDegree, emitNanos,
                hopNanos, queueCapacity, rate, durationNanos, monitorIntervalNanos, rateAlpha, controllerConfig,
                fixedNanos, perMoveNanos, bucketNanos, seed);
    }
}
