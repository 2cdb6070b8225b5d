package io.whale.bench;

import java.util.List;

/**
 * One system through the offered rate's steps ({@code --rate-steps}): the intervals sampled over time, what the spout's
 * worker logged (steps, tree switches, waterline crossings) and how each step was answered.
 */
public record RateStepRun(String name, String label, String schedule, List<RateStepSample> samples, List<ScheduleEvent> events,
                   List<StepResponse> steps) {

    static RateStepRun of(BenchPoint point, String schedule, List<RateStepSample> samples, List<ScheduleEvent> events) {
        return of(point.name(), point.label(), schedule, samples, events);
    }

    public static RateStepRun of(String name, String label, String schedule, List<RateStepSample> samples, List<ScheduleEvent> events) {
        return new RateStepRun(name, label, schedule, List.copyOf(samples), List.copyOf(events), StepResponse.of(events, samples));
    }

    /** When the first step began, epoch milliseconds (the origin of the samples' times). */
    public long originMillis() {
        return ScheduleEvent.firstStepMillis(events);
    }
}
