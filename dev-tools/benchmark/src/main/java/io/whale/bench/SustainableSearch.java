package io.whale.bench;

/**
 * The search for a point's sustainable rate: the highest offered (Poisson) rate at which the backlog stays flat
 * and the p99 latency stays under a bound. Bisection between 0 and a rate known to be too high (the unpaced run's
 * emitted rate, which by definition piles up a backlog), for a fixed number of probes; the answer is the highest
 * probe that passed (0 if none did). Pure: the caller runs each probe and reports what it measured.
 */
final class SustainableSearch {
    /** A backlog that grows by less than this share of the offered rate counts as flat (report-time jitter). */
    static final double FLAT_BACKLOG_SHARE = 0.02;

    private final double p99BoundMillis;
    private int probesLeft;
    private double passed;
    private double failed;

    SustainableSearch(double tooHighRate, double p99BoundMillis, int probes) {
        this.failed = tooHighRate;
        this.p99BoundMillis = p99BoundMillis;
        this.probesLeft = probes;
    }

    /** The next rate to probe, or 0 when the search is over. */
    double nextRate() {
        return probesLeft > 0 ? (passed + failed) / 2 : 0;
    }

    /** Records the outcome of probing {@code rate}; true when it was sustainable. */
    boolean record(double rate, double backlogGrowthPerSecond, double p99Millis) {
        probesLeft--;
        boolean sustainable = sustainable(rate, backlogGrowthPerSecond, p99Millis, p99BoundMillis);
        if (sustainable) {
            passed = Math.max(passed, rate);
        } else {
            failed = Math.min(failed, rate);
        }
        return sustainable;
    }

    /** The highest rate found sustainable so far (0 if none). */
    double sustainableRate() {
        return passed;
    }

    static boolean sustainable(double rate, double backlogGrowthPerSecond, double p99Millis, double p99BoundMillis) {
        return backlogGrowthPerSecond <= FLAT_BACKLOG_SHARE * rate && p99Millis <= p99BoundMillis;
    }
}
