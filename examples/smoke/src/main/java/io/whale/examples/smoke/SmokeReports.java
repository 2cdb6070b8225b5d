package io.whale.examples.smoke;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Reads the counting tasks' reports back and judges them. */
public final class SmokeReports {

    /** One task's report. */
    public record Task(int task, long pid, int workerPort, int expected, long received, int distinct, boolean spoutHere,
                       long preparedMillis, long firstTupleMillis, List<String> peers, String user) {
        public boolean complete() {
            return distinct == expected;
        }
    }

    private final List<Task> tasks;

    private SmokeReports(List<Task> tasks) {
        this.tasks = tasks;
    }

    public static SmokeReports read(Path dir) {
        if (!Files.isDirectory(dir)) {
            return new SmokeReports(List.of());
        }
        try (Stream<Path> files = Files.list(dir)) {
            return new SmokeReports(files.filter(f -> f.getFileName().toString().matches("task-\\d+\\.properties"))
                .map(SmokeReports::readTask)
                .sorted((a, b) -> Integer.compare(a.task(), b.task()))
                .toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Task readTask(Path file) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String peers = p.getProperty("peers", "");
        return new Task(Integer.parseInt(p.getProperty("task")), Long.parseLong(p.getProperty("pid")),
            Integer.parseInt(p.getProperty("worker.port")), Integer.parseInt(p.getProperty("expected")),
            Long.parseLong(p.getProperty("received")), Integer.parseInt(p.getProperty("distinct")),
            Boolean.parseBoolean(p.getProperty("spout.here")), Long.parseLong(p.getProperty("prepared.ms", "0")),
            Long.parseLong(p.getProperty("first.tuple.ms", "0")), peers.isEmpty() ? List.of() : Arrays.asList(peers.split(",")),
            p.getProperty("user", ""));
    }

    public List<Task> tasks() {
        return tasks;
    }

    /** Every one of the expected tasks has reported every tuple. */
    public boolean allComplete(int expectedTasks) {
        return tasks.size() == expectedTasks && tasks.stream().allMatch(Task::complete);
    }

    public Set<Long> workerPids() {
        return tasks.stream().map(Task::pid).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The users the workers ran as. */
    public Set<String> users() {
        return tasks.stream().map(Task::user).collect(Collectors.toCollection(TreeSet::new));
    }

    public Set<String> peers() {
        return tasks.stream().flatMap(t -> t.peers().stream()).collect(Collectors.toCollection(TreeSet::new));
    }

    public String describe() {
        StringBuilder b = new StringBuilder();
        for (Task t : tasks) {
            b.append(String.format("  task %3d  worker pid %-7d port %-5d  distinct %d/%d  deliveries %d%s%n", t.task(), t.pid(),
                t.workerPort(), t.distinct(), t.expected(), t.received(), t.complete() ? "  complete" : ""));
        }
        return b.toString();
    }
}
