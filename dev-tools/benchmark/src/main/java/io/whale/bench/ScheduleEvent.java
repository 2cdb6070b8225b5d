package io.whale.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What happened in the spout's worker during a rate-step run, in time order: each step of the offered rate (its
 * start, as {@link OrderSpout} logs it: the line's time less the "began N ms ago" it states), the end of the schedule,
 * and the source's multicast controller's tree switches and its queue crossing the waterline, read from the
 * controller's metrics ({@code relay-*} of {@code io.whale.relay.ShapeMetrics}, which the console reporter prints
 * into the same worker.log every second: {@link WorkerCounterLog}). Times in epoch milliseconds.
 *
 * @param change a {@link Kind#SWITCH}'s figures, null for the other kinds
 */
public record ScheduleEvent(long epochMillis, Kind kind, String text, Switch change) {
    public enum Kind { STEP, OVER, SWITCH, ABOVE_WATERLINE, UNDER_WATERLINE }

    static final String SWITCHES_UP = "relay-switches-up";
    static final String SWITCHES_DOWN = "relay-switches-down";
    static final String SWITCHES_FORCED = "relay-switches-forced";
    static final String SWITCH_AT = "relay-last-switch-at-ms";
    static final String SWITCH_FROM = "relay-last-switch-from";
    static final String SWITCH_TO = "relay-last-switch-to";
    static final String SWITCH_DRAIN = "relay-last-switch-drain-ms";
    static final String ABOVE = "relay-above-waterline";
    static final String ABOVE_AT = "relay-last-above-waterline-at-ms";
    static final String UNDER_AT = "relay-last-under-waterline-at-ms";

    private static final Pattern LINE = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}) \\S+ .*?\\[\\w+\\] (.*)$");
    private static final Pattern AGO = Pattern.compile("\\((?:began )?(\\d+) ms ago\\)");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    /**
     * A switch: the old and new d* ({@code auto}: the first shape, unbounded), why ({@code SCALE_DOWN}, {@code
     * SCALE_UP}, {@code forced}), how long it drained, and how many switches the same report period counted before it:
     * the metrics time only a period's last, so those are counted here but not timed.
     */
    public record Switch(String from, String to, String reason, long drainMillis, long untimedBefore) {
    }

    /**
     * Step {@code step} (from 0) of {@code steps} of a schedule run by someone else than the spout (the paper
     * benchmark's Kafka feed), at {@code rate} records per second, as {@link OrderSpout} would log it.
     */
    public static ScheduleEvent step(long epochMillis, int step, int steps, double rate) {
        return new ScheduleEvent(epochMillis, Kind.STEP, String.format("%s %d of %d: %.0f records/s (by the feed)", OrderSpout.STEP_LOG,
            step + 1, steps, rate), null);
    }

    /** The end of such a schedule. */
    public static ScheduleEvent over(long epochMillis) {
        return new ScheduleEvent(epochMillis, Kind.OVER, OrderSpout.OVER_LOG + " (by the feed)", null);
    }

    /** A switch the controller's metrics told of, flipped at {@code epochMillis}. */
    public static ScheduleEvent switchAt(long epochMillis, Switch change) {
        return new ScheduleEvent(epochMillis, Kind.SWITCH, String.format("d* %s -> %s (%s); drained in %d ms%s", change.from(),
            change.to(), change.reason(), change.drainMillis(), change.untimedBefore() > 0
                ? "; " + change.untimedBefore() + " earlier switch(es) in the same report period, not timed" : ""), change);
    }

    /** When the first step began (the origin of a run's times), epoch milliseconds. */
    static long firstStepMillis(List<ScheduleEvent> events) {
        return events.stream().filter(e -> e.kind() == Kind.STEP).mapToLong(ScheduleEvent::epochMillis).findFirst()
            .orElseThrow(() -> new IllegalStateException("the spout logged no rate step"));
    }

    /** The spout's steps and the controller's events in {@code workerLog}, in time order. */
    public static List<ScheduleEvent> read(Path workerLog) throws IOException {
        return parse(Files.readString(workerLog), ZoneId.systemDefault());
    }

    /** The events in a worker.log's text whose time stamps are in {@code zone}. */
    static List<ScheduleEvent> parse(String log, ZoneId zone) {
        List<ScheduleEvent> events = new ArrayList<>(steps(log.lines().toList(), zone));
        events.addAll(controllerEvents(WorkerCounterLog.parse(log)));
        events.sort(Comparator.comparingLong(ScheduleEvent::epochMillis));
        return events;
    }

    /** The steps and the schedule's end that {@link OrderSpout} logged in {@code lines}. */
    static List<ScheduleEvent> steps(List<String> lines, ZoneId zone) {
        List<ScheduleEvent> events = new ArrayList<>();
        for (String line : lines) {
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String text = m.group(2);
            Kind kind = text.startsWith(OrderSpout.STEP_LOG + " ") ? Kind.STEP : text.startsWith(OrderSpout.OVER_LOG) ? Kind.OVER : null;
            if (kind == null) {
                continue;
            }
            long at = LocalDateTime.parse(m.group(1), TIME).atZone(zone).toInstant().toEpochMilli();
            Matcher ago = AGO.matcher(text);
            if (ago.find()) {
                at -= Long.parseLong(ago.group(1));
            }
            events.add(new ScheduleEvent(at, kind, text, null));
        }
        return events;
    }

    /**
     * The switches and waterline crossings told by successive metric reports: a report whose switch counters rose
     * since the one before told of a switch at its {@value #SWITCH_AT} (and of any further ones the counters rose by,
     * untimed); one whose {@value #ABOVE} rose, of a rise above the waterline at its {@value #ABOVE_AT}; one whose
     * {@value #UNDER_AT} moved, of the queue back under it then (a period with two crossings shows its last: the
     * response reads the first crossing after a step, and steps are seconds apart). In time order.
     */
    public static List<ScheduleEvent> controllerEvents(List<WorkerCounterLog.Report> reports) {
        List<ScheduleEvent> events = new ArrayList<>();
        long switches = 0;
        long forced = 0;
        long above = 0;
        double under = 0;
        for (WorkerCounterLog.Report r : reports) {
            long nowSwitches = r.count(SWITCHES_UP) + r.count(SWITCHES_DOWN);
            if (nowSwitches > switches && r.value(SWITCH_AT) > 0) {
                events.add(switchAt((long) r.value(SWITCH_AT), new Switch(degree(r.value(SWITCH_FROM)), degree(r.value(SWITCH_TO)),
                    reason(r, forced), (long) r.value(SWITCH_DRAIN), nowSwitches - switches - 1)));
            }
            if (r.count(ABOVE) > above && r.value(ABOVE_AT) > 0) {
                events.add(new ScheduleEvent((long) r.value(ABOVE_AT), Kind.ABOVE_WATERLINE, "queue above the waterline", null));
            }
            if (r.value(UNDER_AT) > under) {
                events.add(new ScheduleEvent((long) r.value(UNDER_AT), Kind.UNDER_WATERLINE, "queue back under the waterline", null));
                under = r.value(UNDER_AT);
            }
            switches = Math.max(switches, nowSwitches);
            forced = Math.max(forced, r.count(SWITCHES_FORCED));
            above = Math.max(above, r.count(ABOVE));
        }
        events.sort(Comparator.comparingLong(ScheduleEvent::epochMillis));
        return events;
    }

    /** Why the report's last switch was taken: forced if the drill's counter rose, else by the direction of its degrees. */
    private static String reason(WorkerCounterLog.Report r, long forcedBefore) {
        if (r.count(SWITCHES_FORCED) > forcedBefore) {
            return "forced";
        }
        double from = r.value(SWITCH_FROM);
        return from > 0 && r.value(SWITCH_TO) > from ? "SCALE_UP" : "SCALE_DOWN";
    }

    private static String degree(double gauge) {
        return gauge == 0 ? "auto" : Long.toString((long) gauge);
    }

    /** This switch's figures; an event of another kind is refused. */
    public Switch switched() {
        if (kind != Kind.SWITCH || change == null) {
            throw new IllegalStateException("not a tree switch: " + text);
        }
        return change;
    }
}
