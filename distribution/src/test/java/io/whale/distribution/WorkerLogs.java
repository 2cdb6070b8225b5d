package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.bench.ScheduleEvent;
import io.whale.bench.WorkerCounterLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The worker.log files of a local cluster, read together, and the counters Storm's console reporter printed in them. */
record WorkerLogs(String text) {
    /** Workers print their metrics to worker.log with this reporter, so tests can read Whale's counters. */
    static final String CONSOLE_METRICS = "topology.metrics.reporters=[{\"class\":"
        + "\"org.apache.storm.metrics2.reporters.ConsoleStormReporter\",\"report.period\":5,\"report.period.units\":\"SECONDS\"}]";

    /** A source's first tree as logged, e.g. {@code ...: s2:1025 [s4:1025], s3:1025}: a relay and its first child. */
    private static final Pattern RELAY_EDGE = Pattern.compile(
        "Relay tree -?\\d+ of source task \\d+ \\(epoch 0\\): (?:[^\\[\\s]+, )*([^\\[\\s,]+) \\[([^\\]\\s,\\[]+)");

    /** A relay and its first child (members as supervisor-id:port) in the logged {@code tree}. */
    record RelayEdge(String tree, String relay, String child) {
        int childPort() {
            return Integer.parseInt(child.substring(child.lastIndexOf(':') + 1));
        }
    }

    static WorkerLogs under(Path logs) throws IOException {
        return under(logs, "");
    }

    /** The worker logs of one topology (by name: its ids are NAME-N-TIME); a restarted worker appends to its slot's log. */
    static WorkerLogs under(Path logs, String topology) throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(logs)) {
            for (Path f : files.filter(f -> f.getFileName().toString().equals("worker.log")
                && f.getParent().getParent().getFileName().toString().startsWith(topology)).toList()) {
                all.append(Files.readString(f));
            }
        }
        return new WorkerLogs(all.toString());
    }

    boolean contains(String line) {
        return text.contains(line);
    }

    /** The largest count the console metrics reporter printed for a counter, over all workers. */
    long lastCount(String counter) {
        long max = lastCountIfPrinted(counter);
        assertTrue(max >= 0, "the metrics reporter never printed " + counter);
        return max;
    }

    /**
     * The sources' tree switches and waterline crossings, in time order, read from their controllers' metrics as a
     * console reporter printed them (one whose filter keeps the {@code relay-*} metrics, every second or so: a switch
     * the reports could not time is counted in the next one's {@link ScheduleEvent.Switch#untimedBefore()}).
     */
    List<ScheduleEvent> treeEvents() {
        return ScheduleEvent.controllerEvents(WorkerCounterLog.parse(text));
    }

    /** The first relay with a child in a tree a source logged, if one did. */
    Optional<RelayEdge> firstRelayEdge() {
        Matcher m = RELAY_EDGE.matcher(text);
        return m.find() ? Optional.of(new RelayEdge(m.group(0), m.group(1), m.group(2))) : Optional.empty();
    }

    /** The largest value the console metrics reporter printed for a gauge, over all workers; -1 if never printed. */
    long largestGauge(String gauge) {
        return largestPrinted(gauge, "value");
    }

    /** As {@link #lastCount}, or -1 when no worker registered the counter (e.g. WOC counters with WOC off). */
    long lastCountIfPrinted(String counter) {
        return largestPrinted(counter, "count");
    }

    /** The largest whole {@code field} (count, value) printed under metric {@code name}; -1 if none. */
    private long largestPrinted(String name, String field) {
        Matcher m = Pattern.compile("-" + name + "\\R.*" + field + " = (\\d+)").matcher(text);
        long max = -1;
        while (m.find()) {
            max = Math.max(max, Long.parseLong(m.group(1)));
        }
        return max;
    }
}
