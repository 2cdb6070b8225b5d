package io.whale.distribution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a cluster's daemons and workers logged about its workers' lives, in a few lines in time order: Nimbus's
 * assignments and the executors it found not alive (one line per topology), each supervisor slot's state changes
 * (launch, running, kill), each worker's launches and its latest errors, and any other error Nimbus or a supervisor
 * logged. A cluster test that fails shows it (SharedCluster), so that a worker that started late, died or was restarted
 * is told apart from a fault of what the test asserts, from the test report alone.
 */
final class ClusterLogDigest {
    /** The lines kept: the latest, those nearest the failure. */
    static final int LINES = 30;
    /** The errors kept per worker.log: its latest (a restarted worker appends to its slot's log). */
    static final int ERRORS_PER_WORKER = 3;
    private static final int WIDTH = 220;
    private static final int STAMP_LENGTH = "2026-12-01 17:05:53.527".length();
    /** Where a stamp's time of day starts. */
    private static final int TIME_OF_DAY = "2026-12-01 ".length();
    private static final Set<String> LOGS = Set.of("nimbus.log", "supervisor.log", "worker.log");
    private static final Pattern STAMP = Pattern.compile("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} ");
    private static final Pattern ASSIGNMENT = Pattern.compile("Setting new assignment for topology id ([^:]+):");
    private static final Pattern NOT_ALIVE = Pattern.compile("Executor (\\S+):\\[[^\\]]*\\] not alive");
    private static final Pattern SLOT_STATE = Pattern.compile(
        "o\\.a\\.s\\.d\\.s\\.Slot SLOT_(\\d+) \\[INFO\\] STATE (\\S+) msInState: (\\d+)(?: topo:(\\S+))?.* -> (\\S+) msInState: \\d+(?: topo:(\\S+))?");
    /** Storm's Netty client logs each failed attempt to reach a worker that is still starting as an error: not one here. */
    private static final String RETRIED_CONNECTION = "connection attempt";

    private ClusterLogDigest() {
    }

    /** The digest of the logs under {@code logs} (a local cluster's logs directory); empty if nothing was logged. */
    static List<String> of(Path logs) {
        if (!Files.isDirectory(logs)) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        Map<String, NotAlive> notAlive = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(logs)) {
            for (Path log : files.filter(f -> LOGS.contains(f.getFileName().toString())).sorted().toList()) {
                String daemon = logs.relativize(log).getName(0).toString();
                List<String> text = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
                if (log.getFileName().toString().equals("worker.log")) {
                    lines.addAll(workerEvents(text, daemon + " " + log.getParent().getParent().getFileName() + ":" + log.getParent().getFileName()));
                } else {
                    for (String line : text) {
                        daemonEvent(daemon, line, notAlive).ifPresent(lines::add);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the cluster's logs under " + logs, e);
        }
        notAlive.forEach((topology, n) -> lines.add(n.first + " nimbus executors of " + topology + " not alive: " + n.reports
            + " report(s), the last at " + n.last.substring(TIME_OF_DAY)));
        // by time alone: List.sort is stable, so the lines of one log in one millisecond keep their order
        lines.sort(Comparator.comparing(l -> l.substring(0, STAMP_LENGTH)));
        return lines.subList(Math.max(0, lines.size() - LINES), lines.size()).stream()
            .map(l -> l.length() > WIDTH ? l.substring(0, WIDTH) + "…" : l).toList();
    }

    /** The digest as a block of text for a failure message. */
    static String text(Path logs) {
        List<String> lines = of(logs);
        return lines.isEmpty() ? "(no log under " + logs + ")"
            : "what the cluster logged about its workers (the latest " + lines.size() + " lines, " + logs + "):\n  " + String.join("\n  ", lines);
    }

    /** Nimbus logs each executor it finds not alive on each of its monitor's rounds (every second here): counted. */
    private static final class NotAlive {
        private final String first;
        private String last;
        private int reports;

        private NotAlive(String first) {
            this.first = first;
        }
    }

    private static Optional<String> daemonEvent(String daemon, String line, Map<String, NotAlive> notAlive) {
        Matcher stamp = STAMP.matcher(line);
        if (!stamp.find()) {
            return Optional.empty();
        }
        String at = line.substring(0, STAMP_LENGTH) + " " + daemon + " ";
        Matcher slot = SLOT_STATE.matcher(line);
        if (slot.find()) {
            String topology = slot.group(4) != null ? slot.group(4) : slot.group(6);
            return Optional.of(at + "slot " + slot.group(1) + ": " + slot.group(2) + " (" + slot.group(3) + " ms) -> " + slot.group(5)
                + (topology == null ? "" : " " + topology));
        }
        Matcher assignment = ASSIGNMENT.matcher(line);
        if (assignment.find()) {
            return Optional.of(at + "new assignment of " + assignment.group(1));
        }
        Matcher dead = NOT_ALIVE.matcher(line);
        if (dead.find()) {
            NotAlive n = notAlive.computeIfAbsent(dead.group(1), t -> new NotAlive(line.substring(0, STAMP_LENGTH)));
            n.last = line.substring(0, STAMP_LENGTH);
            n.reports++;
            return Optional.empty();
        }
        return line.contains("[ERROR]") ? Optional.of(at + line.substring(stamp.end())) : Optional.empty();
    }

    /** A worker's launches, and its latest errors (a halt always): those a failure follows. */
    private static List<String> workerEvents(List<String> text, String worker) {
        List<String> lives = new ArrayList<>();
        Deque<String> errors = new ArrayDeque<>();
        for (String line : text) {
            Matcher stamp = STAMP.matcher(line);
            if (!stamp.find()) {
                continue;
            }
            String at = line.substring(0, STAMP_LENGTH) + " " + worker + " ";
            if (line.contains("Launching worker for")) {
                lives.add(at + "launched");
            } else if (line.contains("Halting process")) {
                lives.add(at + line.substring(stamp.end()));
            } else if (line.contains("[ERROR]") && !line.contains(RETRIED_CONNECTION)) {
                errors.addLast(at + line.substring(stamp.end()));
                if (errors.size() > ERRORS_PER_WORKER) {
                    errors.removeFirst();
                }
            }
        }
        lives.addAll(errors);
        return lives;
    }
}
