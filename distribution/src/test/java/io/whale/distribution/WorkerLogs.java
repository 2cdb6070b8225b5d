package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The worker.log files of a local cluster, read together, and the counters Storm's console reporter printed in them. */
record WorkerLogs(String text) {
    /** Workers print their metrics to worker.log with this reporter, so tests can read Whale's counters. */
    static final String CONSOLE_METRICS = "topology.metrics.reporters=[{\"class\":"
        + "\"org.apache.storm.metrics2.reporters.ConsoleStormReporter\",\"report.period\":5,\"report.period.units\":\"SECONDS\"}]";

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

    /** As {@link #lastCount}, or -1 when no worker registered the counter (e.g. WOC counters with WOC off). */
    long lastCountIfPrinted(String counter) {
        Matcher m = Pattern.compile("-" + counter + "\\R.*count = (\\d+)").matcher(text);
        long max = -1;
        while (m.find()) {
            max = Math.max(max, Long.parseLong(m.group(1)));
        }
        return max;
    }
}
