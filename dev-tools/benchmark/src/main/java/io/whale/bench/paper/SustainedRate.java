package io.whale.bench.paper;

import java.util.Comparator;
import java.util.List;

/**
 * A probe of the search for the sustainable rate, as the feed measured it ({@link FeedSchedule.Window}) or as a run's
 * result holds it ({@link PhaseResult}), and the one rule that turns the probes into the rate reported.
 */
interface SustainedRate {
    double ratePerSecond();

    double offeredPerSecond();

    boolean keptUp();

    /**
     * The sustainable rate: what was offered to the fastest probe that kept up — an offered rate, never what a backlog
     * drained at; NaN when probes ran and none kept up (the rate is below the lowest probed, by how much unknown);
     * without a probe, {@code withoutProbes}.
     */
    static double of(List<? extends SustainedRate> probes, double withoutProbes) {
        if (probes.isEmpty()) {
            return withoutProbes;
        }
        return probes.stream().filter(SustainedRate::keptUp).max(Comparator.comparingDouble(SustainedRate::ratePerSecond))
            .map(SustainedRate::offeredPerSecond).orElse(Double.NaN);
    }

    /**
     * Whether the sustainable rate is only a floor: a probe kept up and none above it fell behind, so none bounds the
     * rate from above ({@link io.whale.bench.RateSearch} goes on past the probes allowed to find one that falls behind, as
     * many again at most). A probe at the same rate that fell behind — one that started behind an undrained backlog,
     * run again — bounds nothing.
     */
    static boolean floor(List<? extends SustainedRate> probes) {
        double highestKept = probes.stream().filter(SustainedRate::keptUp).mapToDouble(SustainedRate::ratePerSecond).max().orElse(Double.NaN);
        return !Double.isNaN(highestKept) && probes.stream().noneMatch(p -> !p.keptUp() && p.ratePerSecond() > highestKept);
    }

    /**
     * The rate other rates are shares of (the common rate, the rate steps): the sustainable rate, or when no probe kept
     * up the lowest rate offered to one (above the sustainable rate, the nearest known), or {@code withoutProbes}.
     */
    static double basis(List<? extends SustainedRate> probes, double withoutProbes) {
        double sustained = of(probes, withoutProbes);
        return !Double.isNaN(sustained) ? sustained
            : probes.stream().mapToDouble(SustainedRate::offeredPerSecond).min().orElse(withoutProbes);
    }
}
