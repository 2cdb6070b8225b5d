package io.whale.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the topology answered one step of the offered rate, all times in milliseconds after the step began: the
 * first tree switch in the step (when the controller decided it: the flip's time less its drain; and when the new
 * trees took over), how many switches the step saw, when the source's queue first rose above the waterline and when
 * it was back under it (the paper's 126 ms is this last figure for its rate step), and over the step's second half
 * the mean rate of orders delivered to every matcher and the highest interval p99.
 */
record StepResponse(int step, String offered, double atSeconds, Long firstSwitchDecidedAfterMillis, Long firstSwitchFlippedAfterMillis,
                    String firstSwitch, int switches, Long aboveWaterlineAfterMillis, Long backUnderWaterlineAfterMillis,
                    double secondHalfBroadcastsPerSecond, double secondHalfPeakP99Millis) {

    private static final Pattern DRAINED = Pattern.compile("drained in (\\d+) ms");
    private static final Pattern DEGREES = Pattern.compile("d\\* (\\S+ -> \\S+) \\((\\w+)");

    /** One response per step the spout logged; {@code samples} are timed from the first step's start. */
    static List<StepResponse> of(List<ScheduleEvent> events, List<RateStepSample> samples) {
        List<ScheduleEvent> steps = events.stream().filter(e -> e.kind() == ScheduleEvent.Kind.STEP).toList();
        if (steps.isEmpty()) {
            return List.of();
        }
        long origin = steps.get(0).epochMillis();
        long over = events.stream().filter(e -> e.kind() == ScheduleEvent.Kind.OVER).mapToLong(ScheduleEvent::epochMillis)
            .findFirst().orElse(Long.MAX_VALUE);
        List<StepResponse> responses = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            long start = steps.get(i).epochMillis();
            long end = i + 1 < steps.size() ? steps.get(i + 1).epochMillis() : over;
            List<ScheduleEvent> in = events.stream().filter(e -> e.epochMillis() >= start && e.epochMillis() < end).toList();
            List<ScheduleEvent> switches = in.stream().filter(e -> e.kind() == ScheduleEvent.Kind.SWITCH).toList();
            Long flipped = switches.isEmpty() ? null : switches.get(0).epochMillis() - start;
            Long decided = flipped == null ? null : flipped - drainMillis(switches.get(0).text());
            Long above = firstAfter(in, ScheduleEvent.Kind.ABOVE_WATERLINE, start);
            Long under = above == null ? null : firstAfter(events.stream().filter(e -> e.epochMillis() >= start + above).toList(),
                ScheduleEvent.Kind.UNDER_WATERLINE, start);
            double from = (start - origin) / 1e3;
            double to = end == Long.MAX_VALUE ? Double.MAX_VALUE : (end - origin) / 1e3;
            List<RateStepSample> secondHalf = samples.stream()
                .filter(s -> s.atSeconds() >= from + (Math.min(to, lastAt(samples)) - from) / 2 && s.atSeconds() < to).toList();
            responses.add(new StepResponse(i + 1, offered(steps.get(i).text()), from, decided, flipped,
                switches.isEmpty() ? null : degrees(switches.get(0).text()), switches.size(), above, under,
                secondHalf.stream().mapToDouble(RateStepSample::broadcastsPerSecond).average().orElse(0),
                secondHalf.stream().mapToDouble(RateStepSample::p99Millis).max().orElse(0)));
        }
        return responses;
    }

    /** A line for the console. */
    String describe() {
        return String.format("step %d (%s) at %.1f s: %s; %s; second half %.0f orders/s to every matcher, peak p99 %.1f ms", step,
            offered, atSeconds,
            firstSwitch == null ? "no switch" : switches + " switch" + (switches == 1 ? "" : "es") + ", the first (" + firstSwitch
                + ") decided after " + firstSwitchDecidedAfterMillis + " ms, trees flipped after " + firstSwitchFlippedAfterMillis + " ms",
            aboveWaterlineAfterMillis == null ? "queue stayed under the waterline"
                : "queue above the waterline after " + aboveWaterlineAfterMillis + " ms, back under "
                    + (backUnderWaterlineAfterMillis == null ? "never" : backUnderWaterlineAfterMillis + " ms") + " after the step",
            secondHalfBroadcastsPerSecond, secondHalfPeakP99Millis);
    }

    private static Long firstAfter(List<ScheduleEvent> events, ScheduleEvent.Kind kind, long start) {
        return events.stream().filter(e -> e.kind() == kind).findFirst().map(e -> e.epochMillis() - start).orElse(null);
    }

    private static long drainMillis(String switchLine) {
        Matcher m = DRAINED.matcher(switchLine);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** "7 -> 1 SCALE_DOWN" from a switch line. */
    private static String degrees(String switchLine) {
        Matcher m = DEGREES.matcher(switchLine);
        return m.find() ? m.group(1) + " " + m.group(2) : switchLine;
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
