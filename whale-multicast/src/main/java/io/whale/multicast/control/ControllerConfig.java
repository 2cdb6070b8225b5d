package io.whale.multicast.control;

/**
 * Settings of the self-adjusting controller (the {@code whale.multicast.*} keys).
 *
 * @param destinations            n
 * @param queueCapacity           Q, the transfer queue's capacity in tuples
 * @param waterline               l_w, the warning waterline, in (0, Q]
 * @param scaleUpThreshold        T_up, in (0, 1]
 * @param scaleDownThreshold      T_down, &gt; 0
 * @param holdIntervals           intervals after a decision in which no other decision is taken (the switch
 *                                has to land and the queue has to react before the controller judges it again)
 * @param scaleUpConfirmIntervals consecutive intervals the scale-up rule must hold before a scale-up
 * @param failureMemoryIntervals  how long a scale-down keeps a scale-up from going back at about the rate it was
 *                                taken at (see {@link MulticastController})
 * @param cascadeIntervals        scale-downs this close are one cascade under one load
 */
public record ControllerConfig(int destinations, int queueCapacity, int waterline, double scaleUpThreshold,
                               double scaleDownThreshold, int holdIntervals, int scaleUpConfirmIntervals,
                               int failureMemoryIntervals, int cascadeIntervals) {
    /** The failure memory of {@link #defaults}: 1,000 intervals. */
    public static final int FAILURE_MEMORY_INTERVALS = 1000;
    /** The cascade of {@link #defaults}: 100 intervals. */
    public static final int CASCADE_INTERVALS = 100;

    public ControllerConfig {
        if (destinations < 1) {
            throw new IllegalArgumentException("destinations must be >= 1");
        }
        if (queueCapacity < 1 || waterline < 1 || waterline > queueCapacity) {
            throw new IllegalArgumentException("need 1 <= waterline <= queueCapacity, got " + waterline + " / "
                    + queueCapacity);
        }
        if (!(scaleUpThreshold > 0 && scaleUpThreshold <= 1) || !(scaleDownThreshold > 0)) {
            throw new IllegalArgumentException("need 0 < T_up <= 1 and T_down > 0");
        }
        if (holdIntervals < 0 || scaleUpConfirmIntervals < 1) {
            throw new IllegalArgumentException("need holdIntervals >= 0 and scaleUpConfirmIntervals >= 1");
        }
        if (failureMemoryIntervals < 1 || cascadeIntervals < 1) {
            throw new IllegalArgumentException("need failureMemoryIntervals >= 1 and cascadeIntervals >= 1");
        }
    }

    /** These settings with the failure memory and cascade of {@link #defaults}. */
    public ControllerConfig(int destinations, int queueCapacity, int waterline, double scaleUpThreshold,
                            double scaleDownThreshold, int holdIntervals, int scaleUpConfirmIntervals) {
        this(destinations, queueCapacity, waterline, scaleUpThreshold, scaleDownThreshold, holdIntervals,
                scaleUpConfirmIntervals, FAILURE_MEMORY_INTERVALS, CASCADE_INTERVALS);
    }

    /**
     * The queue length the scale-up rule takes for an empty queue: a hundredth of the waterline. A worker's
     * transfer queue in use is rarely exactly empty when sampled (measured: 1 to 2 tuples at 150 tuples/s on four
     * emulated hosts), and the paper's l = l' = 0 would then never let a lightly loaded tree scale up again.
     */
    public int idleLength() {
        return waterline / 100;
    }

    /**
     * Q, l_w = Q/2, T_up = 0.5, T_down = 0.5, hold 3 intervals, scale up after 3 agreeing intervals, failure memory
     * 1,000 intervals, cascade 100.
     */
    public static ControllerConfig defaults(int destinations, int queueCapacity) {
        return new ControllerConfig(destinations, queueCapacity, Math.max(1, queueCapacity / 2), 0.5, 0.5, 3, 3);
    }
}
