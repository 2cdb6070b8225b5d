package io.whale.bench;

import java.util.List;

/**
 * One system through the offered rate's steps ({@code --rate-steps}): the intervals sampled over time, what the spout's
 * worker logged (steps, tree switches, waterline crossings), how each step was answered, and the results in 100-ms bins
 * where the application's reporter gave them (none in the all-grouping benchmark and in runs before 2026-11-30).
 */
public record RateStepRun(String name, String label, String schedule, List<RateStepSample> samples, List<ScheduleEvent> events,
                   List<StepResponse> steps, List<RateStepBin> bins) {

    public RateStepRun {
        bins = bins == null ? List.of() : List.copyOf(bins);
    }

    static RateStepRun of(BenchPoint point, String schedule, List<RateStepSample> samples, List<ScheduleEvent> events) {
        return of(point.name(), point.label(), schedule, samples, events, List.of());
    }

    public static RateStepRun of(String name, String label, String schedule, List<RateStepSample> samples, List<ScheduleEvent> events,
                                 List<RateStepBin> bins) {
        return new RateStepRun(name, label, schedule, List.copyOf(samples), List.copyOf(events), StepResponse.of(events, samples), bins);
    }

    /** When the first step began, epoch milliseconds (the origin of the samples' times). */
    public long originMillis() {
        return ScheduleEvent.firstStepMillis(events);
    }
}
