package io.whale.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * How the topology answered one step of the offered rate, all times in milliseconds after the step began: the
 * first tree switch in the step (when the controller decided it: the flip's time less its drain; and when the new
 * trees took over; a first switch the metrics timed after untimed ones says so), how many switches the step saw, when the source's queue first rose above the waterline and when
 * it was back under it (the paper's 126 ms is this last figure for its rate step), and over the step's second half
 * the mean rate of orders delivered to every matcher, the highest interval p99, the mean cores busy (the machine's),
 * the Mbit/s sent by the spout's host (NaN without emulated hosts) and the cores it used (NaN without {@code --host-cpus}).
 */
public record StepResponse(int step, String offered, double atSeconds, Long firstSwitchDecidedAfterMillis, Long firstSwitchFlippedAfterMillis,
                    String firstSwitch, int switches, Long aboveWaterlineAfterMillis, Long backUnderWaterlineAfterMillis,
                    double secondHalfBroadcastsPerSecond, double secondHalfPeakP99Millis, double secondHalfCpuCoresBusy,
                    double secondHalfSourceLinkMbit, Double secondHalfSourceHostCores) {

    public StepResponse {
        // a run saved before the hosts' cores were read has none
        secondHalfSourceHostCores = secondHalfSourceHostCores == null ? Double.NaN : secondHalfSourceHostCores;
    }

    /** One response per step the spout logged; {@code samples} are timed from the first step's start. */
    static List<StepResponse> of(List<ScheduleEvent> events, List<RateStepSample> samples) {
        List<ScheduleEvent> steps = events.stream().filter(e -> e.kind() == ScheduleEvent.Kind.STEP).toList();
        if (steps.isEmpty()) {
            return List.of();
        }
        long origin = ScheduleEvent.firstStepMillis(events);
        long over = events.stream().filter(e -> e.kind() == ScheduleEvent.Kind.OVER).mapToLong(ScheduleEvent::epochMillis)
            .findFirst().orElse(Long.MAX_VALUE);
        List<StepResponse> responses = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            long start = steps.get(i).epochMillis();
            long end = i + 1 < steps.size() ? steps.get(i + 1).epochMillis() : over;
            List<ScheduleEvent> in = events.stream().filter(e -> e.epochMillis() >= start && e.epochMillis() < end).toList();
            List<ScheduleEvent> switches = in.stream().filter(e -> e.kind() == ScheduleEvent.Kind.SWITCH).toList();
            ScheduleEvent.Switch first = switches.isEmpty() ? null : switches.get(0).switched();
            Long flipped = first == null ? null : switches.get(0).epochMillis() - start;
            Long decided = first == null ? null : flipped - first.drainMillis();
            Long above = firstAfter(in, ScheduleEvent.Kind.ABOVE_WATERLINE, start);
            Long under = above == null ? null : firstAfter(events.stream().filter(e -> e.epochMillis() >= start + above).toList(),
                ScheduleEvent.Kind.UNDER_WATERLINE, start);
            double from = (start - origin) / 1e3;
            double to = end == Long.MAX_VALUE ? Double.MAX_VALUE : (end - origin) / 1e3;
            List<RateStepSample> secondHalf = samples.stream()
                .filter(s -> s.atSeconds() >= from + (Math.min(to, lastAt(samples)) - from) / 2 && s.atSeconds() < to).toList();
            responses.add(new StepResponse(i + 1, offered(steps.get(i).text()), from, decided, flipped,
                first == null ? null : first.from() + " -> " + first.to() + " " + first.reason()
                    + (first.untimedBefore() > 0 ? " (after " + first.untimedBefore() + " untimed)" : ""),
                (int) switches.stream().mapToLong(e -> 1 + e.switched().untimedBefore()).sum(), above, under,
                secondHalf.stream().mapToDouble(RateStepSample::broadcastsPerSecond).average().orElse(0),
                secondHalf.stream().mapToDouble(RateStepSample::p99Millis).max().orElse(0),
                secondHalf.stream().mapToDouble(RateStepSample::cpuCoresBusy).average().orElse(Double.NaN),
                secondHalf.stream().mapToDouble(RateStepSample::sourceLinkMbit).average().orElse(Double.NaN),
                secondHalf.stream().mapToDouble(RateStepSample::sourceHostCores).average().orElse(Double.NaN)));
        }
        return responses;
    }

    /** A line for the console. */
    public String describe() {
        return String.format("step %d (%s) at %.1f s: %s; %s; second half %.0f orders/s to every matcher, peak p99 %.1f ms,"
            + " %.1f cores busy, the spout's host sent %.2f Mbit/s and used %.2f cores", step,
            offered, atSeconds,
            firstSwitch == null ? "no switch" : switches + " switch" + (switches == 1 ? "" : "es") + ", the first (" + firstSwitch
                + ") decided after " + firstSwitchDecidedAfterMillis + " ms, trees flipped after " + firstSwitchFlippedAfterMillis + " ms",
            aboveWaterlineAfterMillis == null ? "queue stayed under the waterline"
                : "queue above the waterline after " + aboveWaterlineAfterMillis + " ms, back under "
                    + (backUnderWaterlineAfterMillis == null ? "never" : backUnderWaterlineAfterMillis + " ms") + " after the step",
            secondHalfBroadcastsPerSecond, secondHalfPeakP99Millis, secondHalfCpuCoresBusy, secondHalfSourceLinkMbit, secondHalfSourceHostCores);
    }

    private static Long firstAfter(List<ScheduleEvent> events, ScheduleEvent.Kind kind, long start) {
        return events.stream().filter(e -> e.kind() == kind).findFirst().map(e -> e.epochMillis() - start).orElse(null);
    }

    /** "400 orders/s" from a step line. */
    private static String offered(String stepLine) {
        int colon = stepLine.indexOf(": ");
        int paren = stepLine.indexOf(" (", colon);
        return colon < 0 || paren < 0 ? stepLine : stepLine.substring(colon + 2, paren);
    }

    private static double lastAt(List<RateStepSample> samples) {
        return samples.isEmpty() ? 0 : samples.get(samples.size() - 1).atSeconds();
    }
}
