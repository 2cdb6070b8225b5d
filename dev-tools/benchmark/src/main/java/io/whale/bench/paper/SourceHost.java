package io.whale.bench.paper;

import io.whale.bench.WorkerCounterLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The emulated host whose worker runs a component's tasks: the worker whose log says
 * {@code Loading executor tasks <component>:[…]}, under {@code logs/supervisor-N/workers-artifacts/<topology id>/<port>/};
 * Supervisor N runs on host N. The newest such log wins (a folder reused from an earlier run may hold others).
 */
final class SourceHost {
    private static final Pattern SUPERVISOR = Pattern.compile("supervisor-(\\d+)");

    private SourceHost() {
    }

    static int of(Path logs, String topology, String component) throws IOException {
        Matcher m = SUPERVISOR.matcher(logs.relativize(log(logs, topology, component)).toString());
        if (!m.find()) {
            throw new IllegalStateException("the worker log of " + component + " of " + topology + " is not under a supervisor-N folder of " + logs);
        }
        return Integer.parseInt(m.group(1));
    }

    /** That worker's log. */
    static Path log(Path logs, String topology, String component) throws IOException {
        String line = "Loading executor tasks " + component + ":";
        for (Path log : workerLogs(logs, topology)) {
            if (Files.readString(log).contains(line)) {
                return log;
            }
        }
        throw new IllegalStateException("no worker log of " + topology + " under " + logs + " loads " + component);
    }

    /**
     * The console reporter's reports in each worker log of {@code topology} ({@link #workerLogs}), each log read once
     * for every figure taken from them.
     */
    static List<List<WorkerCounterLog.Report>> workerReports(Path logs, String topology) throws IOException {
        List<List<WorkerCounterLog.Report>> reports = new ArrayList<>();
        for (Path log : workerLogs(logs, topology)) {
            reports.add(WorkerCounterLog.parse(Files.readString(log)));
        }
        return reports;
    }

    /** Every worker log of the topology named {@code topology} under {@code logs}, the newest first. */
    static List<Path> workerLogs(Path logs, String topology) throws IOException {
        // a topology id is NAME-COUNTER-SECONDS: "NAME-" alone would also match NAME-steps-…
        Pattern id = Pattern.compile(Pattern.quote(topology) + "-\\d+-\\d+");
        try (Stream<Path> files = Files.walk(logs)) {
            return files.filter(p -> p.getFileName().toString().equals("worker.log"))
                .filter(p -> id.matcher(p.getParent().getParent().getFileName().toString()).matches())
                .sorted(Comparator.comparing(SourceHost::modified).reversed()).toList();
        }
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
