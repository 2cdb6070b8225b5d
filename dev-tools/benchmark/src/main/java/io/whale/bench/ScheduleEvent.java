package io.whale.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the spout's worker logged during a rate-step run, in its log's order: each step of the offered rate (its
 * start: the line's time less the "began N ms ago" it states), the end of the schedule, and the source's multicast
 * controller's tree switches and its queue crossing the waterline ({@code io.whale.relay.TreeShaper}). Times in
 * epoch milliseconds (the log's local time in this machine's zone).
 */
public record ScheduleEvent(long epochMillis, Kind kind, String text) {
    public enum Kind { STEP, OVER, SWITCH, ABOVE_WATERLINE, UNDER_WATERLINE }

    private static final Pattern LINE = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}) \\S+ .*?\\[\\w+\\] (.*)$");
    private static final Pattern AGO = Pattern.compile("\\((?:began )?(\\d+) ms ago\\)");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    /** A switch line: {@code d* FROM -> TO (DIRECTION…); drained in N ms} (a forced switch's reason has parentheses). */
    private static final Pattern SWITCH = Pattern.compile("d\\* (\\S+) -> (\\S+) \\((\\w+).*; drained in (\\d+) ms");

    /** What a {@link Kind#SWITCH} line says: the old and new d*, why ({@code SCALE_DOWN}, …) and how long it drained. */
    public record Switch(String from, String to, String reason, long drainMillis) {
    }

    /**
     * Step {@code step} (from 0) of {@code steps} of a schedule run by someone else than the spout (the paper
     * benchmark's Kafka feed), at {@code rate} records per second, as {@link OrderSpout} would log it.
     */
    public static ScheduleEvent step(long epochMillis, int step, int steps, double rate) {
        return new ScheduleEvent(epochMillis, Kind.STEP, String.format("%s %d of %d: %.0f records/s (by the feed)", OrderSpout.STEP_LOG,
            step + 1, steps, rate));
    }

    /** The end of such a schedule. */
    public static ScheduleEvent over(long epochMillis) {
        return new ScheduleEvent(epochMillis, Kind.OVER, OrderSpout.OVER_LOG + " (by the feed)");
    }

    /** When the first step began (the origin of a run's times), epoch milliseconds. */
    static long firstStepMillis(List<ScheduleEvent> events) {
        return events.stream().filter(e -> e.kind() == Kind.STEP).mapToLong(ScheduleEvent::epochMillis).findFirst()
            .orElseThrow(() -> new IllegalStateException("the spout logged no rate step"));
    }

    /** This switch line's figures; a line of another kind, or one that does not read as a switch, is refused. */
    public Switch switched() {
        Matcher m = SWITCH.matcher(text);
        if (kind != Kind.SWITCH || !m.find()) {
            throw new IllegalStateException("not a tree switch: " + text);
        }
        return new Switch(m.group(1), m.group(2), m.group(3), Long.parseLong(m.group(4)));
    }

    public static List<ScheduleEvent> read(Path workerLog) throws IOException {
        try (var lines = Files.lines(workerLog)) {
            return parse(lines.toList(), ZoneId.systemDefault());
        }
    }

    static List<ScheduleEvent> parse(List<String> lines, ZoneId zone) {
        List<ScheduleEvent> events = new ArrayList<>();
        for (String line : lines) {
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String text = m.group(2);
            Kind kind = kindOf(text);
            if (kind == null) {
                continue;
            }
            long at = LocalDateTime.parse(m.group(1), TIME).atZone(zone).toInstant().toEpochMilli();
            Matcher ago = AGO.matcher(text);
            if ((kind == Kind.STEP || kind == Kind.OVER) && ago.find()) {
                at -= Long.parseLong(ago.group(1));
            }
            events.add(new ScheduleEvent(at, kind, text));
        }
        return events;
    }

    private static Kind kindOf(String text) {
        if (text.startsWith(OrderSpout.STEP_LOG + " ")) {
            return Kind.STEP;
        }
        if (text.startsWith(OrderSpout.OVER_LOG)) {
            return Kind.OVER;
        }
        if (text.startsWith("Multicast trees, epoch ")) {
            return Kind.SWITCH;
        }
        if (text.startsWith("Multicast queue above the waterline")) {
            return Kind.ABOVE_WATERLINE;
        }
        if (text.startsWith("Multicast queue back under the waterline")) {
            return Kind.UNDER_WATERLINE;
        }
        return null;
    }
}
