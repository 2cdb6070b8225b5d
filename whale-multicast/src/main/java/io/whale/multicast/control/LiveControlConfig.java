package io.whale.multicast.control;

/**
 * Every setting of the live control law ({@link LiveControl}) in one place: the paper's, which the
 * {@code whale.multicast.*} keys set, and the constants tuned on the emulated clusters, with what they answer.
 *
 * @param queueCapacity           Q, the source's queue capacity in tuples
 * @param waterline               l_w, in (0, Q]
 * @param scaleUpThreshold        T_up, in (0, 1]
 * @param scaleDownThreshold      T_down, &gt; 0
 * @param intervalNanos           Δt, how often the controller decides
 * @param rateAlpha               α of the λ and t_e smoothing, in [0, 1)
 * @param forcedSwitchNanos       0, or switch between a chain and the full tree this often whatever the load says
 *                                (a drill that exercises switching)
 * @param readNanos               how often the source's backlog is read within an interval (at most Δt): the
 *                                controller takes the lowest read of an interval for l ({@code QueueFloor})
 * @param holdIntervals           intervals after a decision or a landed switch in which no other is taken
 * @param scaleUpConfirmIntervals consecutive intervals the scale-up rule must hold
 * @param failureMemoryNanos      how long a scale-down keeps a scale-up from going back at about the rate it was
 *                                taken at (see {@link MulticastController})
 * @param cascadeNanos            scale-downs this close are one cascade under one load
 * @param rateOutlierFactor       an interval's rate this far off λ is clamped once ({@code StreamMonitor})
 * @param waterlineConfirmReads   reads in a row under the waterline that call the queue back under it (a
 *                                window-bound source's backlog flickers from read to read)
 * @param stallNanos              how long a child of the source may owe credit and return none before the controller
 *                                holds for it
 */
public record LiveControlConfig(int queueCapacity, int waterline, double scaleUpThreshold, double scaleDownThreshold,
                                long intervalNanos, double rateAlpha, long forcedSwitchNanos, long readNanos,
                                int holdIntervals, int scaleUpConfirmIntervals, long failureMemoryNanos,
                                long cascadeNanos, double rateOutlierFactor, int waterlineConfirmReads,
                                long stallNanos) {
    private static final long MS = 1_000_000L;
    /** Backlog reads: every 10 ms. */
    public static final long READ_NANOS = 10 * MS;
    public static final int HOLD_INTERVALS = 3;
    public static final int SCALE_UP_CONFIRM_INTERVALS = 3;
    /** Failure memory: 10 s. */
    public static final long FAILURE_MEMORY_NANOS = 10_000 * MS;
    /** Cascade: 1 s. */
    public static final long CASCADE_NANOS = 1_000 * MS;
    public static final double RATE_OUTLIER_FACTOR = 4.0;
    public static final int WATERLINE_CONFIRM_READS = 10;
    /**
     * Stall: 500 ms. On the saturated 1 and 2 Mbit/s links of the tests and benchmarks a child's credits came up to
     * 170 ms apart (once 736 ms, in a window-bound chain); workers still starting returned none for 0.4 to 19 s.
     */
    public static final long STALL_NANOS = 500 * MS;

    public LiveControlConfig {
        if (intervalNanos <= 0 || readNanos <= 0 || forcedSwitchNanos < 0 || stallNanos <= 0
                || failureMemoryNanos <= 0 || cascadeNanos <= 0 || waterlineConfirmReads < 1) {
            throw new IllegalArgumentException("invalid live control settings " + this);
        }
        // the controller's own checks, on the settings it is built from
        new ControllerConfig(1, queueCapacity, waterline, scaleUpThreshold, scaleDownThreshold, holdIntervals,
                scaleUpConfirmIntervals);
    }

    /** The paper's settings with the tuned constants above. */
    public static LiveControlConfig of(int queueCapacity, int waterline, double scaleUpThreshold,
                                       double scaleDownThreshold, long intervalNanos, double rateAlpha,
                                       long forcedSwitchNanos) {
        return new LiveControlConfig(queueCapacity, waterline, scaleUpThreshold, scaleDownThreshold, intervalNanos,
                rateAlpha, forcedSwitchNanos, READ_NANOS, HOLD_INTERVALS, SCALE_UP_CONFIRM_INTERVALS,
                FAILURE_MEMORY_NANOS, CASCADE_NANOS, RATE_OUTLIER_FACTOR, WATERLINE_CONFIRM_READS, STALL_NANOS);
    }

    /** The controller's settings for a tree of {@code destinations}, its memories in whole intervals. */
    public ControllerConfig controllerConfig(int destinations) {
        return new ControllerConfig(destinations, queueCapacity, waterline, scaleUpThreshold, scaleDownThreshold,
                holdIntervals, scaleUpConfirmIntervals, intervals(failureMemoryNanos), intervals(cascadeNanos));
    }

    /** How often the backlog is read: every {@link #readNanos}, and at least once an interval. */
    public long readEveryNanos() {
        return Math.min(readNanos, intervalNanos);
    }

    private int intervals(long nanos) {
        return (int) Math.max(1, nanos / intervalNanos);
    }
}
