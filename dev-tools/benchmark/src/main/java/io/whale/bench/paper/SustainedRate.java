package io.whale.bench.paper;

import java.util.Comparator;
import java.util.List;

/**
 * A probe of the search for the sustainable rate, as the feed measured it ({@link FeedSchedule.Window}) or as a run's
 * result holds it ({@link PhaseResult}), and the one rule that turns the probes into the rate reported.
 */
interface SustainedRate {
    double ratePerSecond();

    double consumedPerSecond();

    boolean keptUp();

    /**
     * The consumed rate of the fastest probe that kept up (the sustainable rate); when none did, the most a probe
     * consumed (what the system carried while falling behind); without a probe, {@code withoutProbes}.
     */
    static double of(List<? extends SustainedRate> probes, double withoutProbes) {
        List<SustainedRate> all = List.copyOf(probes);
        return all.stream().filter(SustainedRate::keptUp).max(Comparator.comparingDouble(SustainedRate::ratePerSecond))
            .or(() -> all.stream().max(Comparator.comparingDouble(SustainedRate::consumedPerSecond)))
            .map(SustainedRate::consumedPerSecond).orElse(withoutProbes);
    }
}
