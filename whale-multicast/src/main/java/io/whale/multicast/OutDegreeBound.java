package io.whale.multicast;

/**
 * The maximum out-degree d* and the maximum affordable input rate M of the source (paper §3.2.1, Theorem 1).
 *
 * <p>From E(L) ≤ Q with ρ = λ·d0·t_e the stable root gives d* = ⌊(Q + 1 − √(Q² + 1)) / (λ·t_e)⌋, the same
 * bound as Eq. 4/5. The paper's Eq. 3 as printed, 2Q / (λ·t_e·(Q + 1 − √(Q² + 1))), equals
 * (Q + 1 + √(Q² + 1)) / (λ·t_e): the other root, where ρ &gt; 1 and the queue is unstable
 * ({@link #printedEquation3(double, double, double)} keeps it only so tests can show the difference).
 *
 * <p>d* is always an integer in [1, n]: the largest degree whose E(L) stays within Q, or 1 (the fastest the
 * source can go) when even d0 = 1 overflows, or n when λ = 0.
 */
public final class OutDegreeBound {
    private OutDegreeBound() {
    }

    /** d* for the plain cost model μ = 1/(d0·t_e). */
    public static int maxOutDegree(double lambda, double emitSeconds, double capacity, int destinations) {
        MD1Queue.requirePositive(emitSeconds, "t_e");
        return clampToStable(lambda, capacity, destinations,
                d -> MD1Queue.serviceRate(d, emitSeconds),
                lambda == 0 ? Double.POSITIVE_INFINITY : MD1Queue.maxStableLoad(capacity) / (lambda * emitSeconds));
    }

    /** d* for the worker-oriented cost model μ = 1/(d·t_d + t_s). */
    public static int wocMaxOutDegree(double lambda, double scheduleSeconds, double serializeSeconds,
                                      double capacity, int destinations) {
        MD1Queue.wocServiceRate(1, scheduleSeconds, serializeSeconds); // rejects invalid t_d, t_s
        double estimate;
        if (lambda == 0) {
            estimate = Double.POSITIVE_INFINITY;
        } else if (scheduleSeconds == 0) {
            estimate = lambda * serializeSeconds <= MD1Queue.maxStableLoad(capacity) ? Double.POSITIVE_INFINITY : 0;
        } else {
            estimate = (MD1Queue.maxStableLoad(capacity) / lambda - serializeSeconds) / scheduleSeconds;
        }
        return clampToStable(lambda, capacity, destinations,
                d -> MD1Queue.wocServiceRate(d, scheduleSeconds, serializeSeconds), estimate);
    }

    /** Eq. 5: M = (Q + 1 − √(Q² + 1)) / (d0·t_e), the largest λ with E(L) ≤ Q; proportional to 1/d0 (Theorem 1). */
    public static double maxAffordableRate(int outDegree, double emitSeconds, double capacity) {
        return MD1Queue.maxStableLoad(capacity) * MD1Queue.serviceRate(outDegree, emitSeconds);
    }

    /** The paper's Eq. 3 exactly as printed: the unstable root. Not a usable bound; see the class comment. */
    public static double printedEquation3(double lambda, double emitSeconds, double capacity) {
        return 2 * capacity / (lambda * emitSeconds * (capacity + 1 - Math.sqrt(capacity * capacity + 1)));
    }

    private interface RateOfDegree {
        double mu(int degree);
    }

    private static int clampToStable(double lambda, double capacity, int destinations, RateOfDegree rate,
                                     double estimate) {
        MD1Queue.requireNonNegative(lambda, "λ");
        MD1Queue.requireNonNegative(capacity, "Q");
        if (destinations < 1) {
            throw new IllegalArgumentException("destinations must be >= 1, got " + destinations);
        }
        int d = (int) Math.max(1, Math.min(destinations, Math.floor(estimate)));
        // The closed form can land one off the exact boundary through rounding; settle it on E(L) itself.
        while (d > 1 && MD1Queue.meanQueueLength(lambda, rate.mu(d)) > capacity) {
            d--;
        }
        while (d < destinations && MD1Queue.meanQueueLength(lambda, rate.mu(d + 1)) <= capacity) {
            d++;
        }
        return d;
    }
}
