package io.whale.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Whale's worker metrics ({@code woc-*}, {@code rdma-*}, {@code relay-*}: component {@code __system}, task -1) as
 * Storm's console metrics reporter prints them into a worker's worker.log: a banner line with the date, then per
 * metric its full registry name on one line and {@code count = N} (a counter) or {@code value = X} (a gauge) on the
 * next, then two empty lines. The benchmark
 * topology turns that reporter on ({@link BenchTopology#counterReporter()}), filtered to these counters
 * ({@link WhaleCounterFilter}).
 */
public final class WorkerCounterLog {
    /** A log line of the console reporter: time, thread, message (the worker's log4j2 pattern). */
    private static final Pattern LINE =
        Pattern.compile("^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}) \\S*ConsoleReporter (\\S+) \\[\\w+\\] ?(.*)$");
    private static final Pattern BANNER = Pattern.compile(".* ={10,}$");
    private static final Pattern COUNT = Pattern.compile("^\\s*count = (\\d+)$");
    private static final Pattern VALUE = Pattern.compile("^\\s*value = (-?(?:\\d+(?:\\.\\d*)?(?:[eE]-?\\d+)?|NaN|Infinity))$");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    /** One complete report: the time the reporter started it and every counter and numeric gauge it printed. */
    public record Report(LocalDateTime time, Map<String, Long> counters, Map<String, Double> gauges) {
        /** The counter's count, 0 when the report has none (not registered yet). */
        public long count(String counter) {
            return counters.getOrDefault(counter, 0L);
        }

        /** The gauge's value, NaN when the report has none. */
        public double value(String gauge) {
            return gauges.getOrDefault(gauge, Double.NaN);
        }
    }

    private WorkerCounterLog() {
    }

    /** The complete reports in the text of a worker.log, oldest first; a report still being written is left out. */
    public static List<Report> parse(String log) {
        List<Report> reports = new ArrayList<>();
        Map<String, Partial> byThread = new HashMap<>();
        for (String line : log.split("\\R")) {
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String thread = m.group(2);
            String message = m.group(3);
            Partial current = byThread.get(thread);
            if (BANNER.matcher(message).matches()) {
                if (current != null) {
                    reports.add(current.report());
                }
                byThread.put(thread, new Partial(LocalDateTime.parse(m.group(1), TIME)));
            } else if (current != null && current.add(message)) {
                reports.add(current.report());
                byThread.remove(thread);
            }
        }
        reports.sort(Comparator.comparing(Report::time));
        return reports;
    }

    /** The last complete report in FILE, if any. */
    static Optional<Report> last(Path file) {
        try {
            List<Report> reports = parse(Files.readString(file));
            return reports.isEmpty() ? Optional.empty() : Optional.of(reports.get(reports.size() - 1));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * The worker.log of the worker process PID on PORT, under a local cluster's logs directory
     * ({@code <supervisor>/workers-artifacts/<topology-id>/<port>/worker.log}, next to the worker's worker.pid).
     */
    static Optional<Path> find(Path logsDir, long pid, int port) {
        if (!Files.isDirectory(logsDir)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.find(logsDir, 5, (f, attrs) -> f.getFileName().toString().equals("worker.pid")
            && f.getParent().getFileName().toString().equals(String.valueOf(port)))) {
            return files.filter(f -> pidIn(f) == pid).map(f -> f.resolveSibling("worker.log")).filter(Files::isRegularFile)
                .max(Comparator.comparing(WorkerCounterLog::modified));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot search " + logsDir, e);
        }
    }

    private static long pidIn(Path pidFile) {
        try {
            return Long.parseLong(Files.readString(pidFile).trim());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    private static long modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    /** A report being read: its metrics so far, the name waiting for its figure, trailing empty lines. */
    private static final class Partial {
        private final LocalDateTime time;
        private final Map<String, Long> counters = new LinkedHashMap<>();
        private final Map<String, Double> gauges = new LinkedHashMap<>();
        private String name;
        private int emptyLines;

        Partial(LocalDateTime time) {
            this.time = time;
        }

        /** Takes one message of the report; true when it was the report's end (its second empty line in a row). */
        boolean add(String message) {
            if (message.isBlank()) {
                return ++emptyLines == 2;
            }
            emptyLines = 0;
            Matcher count = COUNT.matcher(message);
            Matcher value = VALUE.matcher(message);
            if (count.matches() && name != null) {
                counters.put(name, Long.parseLong(count.group(1)));
                name = null;
            } else if (value.matches() && name != null) {
                gauges.put(name, Double.parseDouble(value.group(1)));
                name = null;
            } else {
                name = WhaleCounterFilter.counterName(message);
            }
            return false;
        }

        Report report() {
            return new Report(time, Map.copyOf(counters), Map.copyOf(gauges));
        }
    }
}
