package io.whale.bench.paper;

import io.whale.bench.BenchSystem;
import io.whale.bench.RateStepBin;
import io.whale.bench.RateStepRun;
import io.whale.bench.RateStepSample;
import io.whale.bench.ScheduleEvent;
import io.whale.examples.smoke.RateSchedule;
import java.util.ArrayList;
import java.util.List;

/** Rate-step runs made up for the tests: a system that answers what is offered up to its capacity, one sample a second, its
 * source's host (host 1) at a quarter of a core above its capacity and a tenth below. */
final class MadeUpStepRuns {
    static final long ORIGIN = 1_700_000_000_000L;

    private MadeUpStepRuns() {
    }

    /** {@code system} through {@code schedule} (whole seconds); a run that switches its tree switches once, a second into step 2. */
    static PaperStepRun run(BenchSystem system, int repeat, String schedule, double capacity, boolean switches) {
        RateSchedule steps = RateSchedule.parse(schedule);
        List<ScheduleEvent> events = new ArrayList<>();
        List<RateStepSample> samples = new ArrayList<>();
        List<RateStepBin> bins = new ArrayList<>();
        for (int step = 0; step < steps.steps(); step++) {
            long start = ORIGIN + steps.stepStartNanos(step) / 1_000_000;
            events.add(ScheduleEvent.step(start, step, steps.steps(), steps.rate(step)));
            if (switches && step == 1) {
                events.add(ScheduleEvent.switchAt(start + 1_000, new ScheduleEvent.Switch("1", "3", "SCALE_UP", 40, 0)));
            }
        }
        long seconds = steps.lengthNanos() / 1_000_000_000L;
        events.add(ScheduleEvent.over(ORIGIN + seconds * 1_000));
        for (int s = 0; s < seconds; s++) {
            double offered = steps.rate(steps.stepAt(s * 1_000_000_000L + 500_000_000L));
            samples.add(new RateStepSample(s + 0.5, offered, Math.min(offered, capacity), 10, offered > capacity ? 900 : 20, 1.5, 1.8,
                offered > capacity ? 0.25 : 0.1, List.of(0.05, offered > capacity ? 0.25 : 0.1)));
            for (int bin = 0; bin < 10; bin++) {
                bins.add(new RateStepBin(s + bin / 10.0, Math.min(offered, capacity), offered > capacity ? 700 : 15));
            }
        }
        return new PaperStepRun(PaperApp.RIDEHAILING.option(), system.option(), 8, repeat, 100, StepBase.FROM_SEQUENTIAL,
            RateStepRun.of("paper-ridehailing-" + system.option() + "-p8-r" + repeat + "-steps", system.label(), schedule, samples, events, bins));
    }
}
