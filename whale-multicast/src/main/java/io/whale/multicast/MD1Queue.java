package io.whale.multicast;

/**
 * The source's transfer queue as an M/D/1 system (paper §3.2.1): Poisson arrivals at rate λ, a deterministic
 * service time 1/μ per tuple (one replica per child, each taking t<sub>e</sub>).
 */
public final class MD1Queue {
    private MD1Queue() {
    }

    /** Eq. 1: μ = 1 / (d0 · t_e), the tuples per second a source with d0 children can emit. */
    public static double serviceRate(int outDegree, double emitSeconds) {
        requirePositive(outDegree, "out-degree");
        requirePositive(emitSeconds, "t_e");
        return 1.0 / (outDegree * emitSeconds);
    }

    /**
     * With worker-oriented communication (paper §4): μ = 1 / (d · t_d + t_s), the tuple is serialized once
     * (t_s) and scheduled once per destination worker (t_d).
     */
    public static double wocServiceRate(int outDegree, double scheduleSeconds, double serializeSeconds) {
        requirePositive(outDegree, "out-degree");
        if (!(scheduleSeconds >= 0) || !(serializeSeconds >= 0) || scheduleSeconds + serializeSeconds == 0) {
            throw new IllegalArgumentException("t_d and t_s must be >= 0 and not both 0");
        }
        return 1.0 / (outDegree * scheduleSeconds + serializeSeconds);
    }

    /**
     * Eq. 2: E(L) = λ² / (2μ(μ − λ)) + λ/μ, the mean number of tuples in the system. Infinite when λ ≥ μ
     * (the queue grows without bound).
     */
    public static double meanQueueLength(double lambda, double mu) {
        requireNonNegative(lambda, "λ");
        requirePositive(mu, "μ");
        if (lambda >= mu) {
            return Double.POSITIVE_INFINITY;
        }
        double rho = lambda / mu;
        return rho * rho / (2 * (1 - rho)) + rho;
    }

    /**
     * The largest load ρ = λ/μ with E(L) ≤ Q. E(L) ≤ Q is ρ² − 2(Q+1)ρ + 2Q ≥ 0 for ρ &lt; 1; its stable root is
     * Q + 1 − √(Q² + 1), computed here as 2Q / (Q + 1 + √(Q² + 1)) to avoid cancellation for large Q.
     * It lies in [0, 1): 0 for Q = 0, approaching 1 as Q grows.
     */
    public static double maxStableLoad(double capacity) {
        requireNonNegative(capacity, "Q");
        if (Double.isInfinite(capacity)) {
            return 1.0;
        }
        return 2 * capacity / (capacity + 1 + Math.sqrt(capacity * capacity + 1));
    }

    static void requirePositive(double value, String name) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be positive and finite, got " + value);
        }
    }

    static void requireNonNegative(double value, String name) {
        if (!(value >= 0)) {
            throw new IllegalArgumentException(name + " must be >= 0, got " + value);
        }
    }
}
