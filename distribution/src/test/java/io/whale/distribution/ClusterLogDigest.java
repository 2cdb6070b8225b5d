package io.whale.distribution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a cluster's daemons and workers logged about its workers' lives, in a few lines in time order: Nimbus's
 * assignments and executors it found dead, each supervisor slot's state changes (launch, running, kill), and the errors
 * workers logged. A cluster test that fails shows it (SharedCluster), so that a worker that started late, died or was
 * restarted is told apart from a fault of what the test asserts, from the test report alone.
 */
final class ClusterLogDigest {
    /** The lines kept: the latest, those nearest the failure. */
    static final int LINES = 30;
    private static final int WIDTH = 220;
    private static final int ERRORS_PER_WORKER = 3;
    private static final Pattern STAMP = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\d )(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) ");
    private static final Pattern ASSIGNMENT = Pattern.compile("Setting new assignment for topology id ([^:]+):");
    private static final Pattern SLOT_STATE = Pattern.compile(
        "o\\.a\\.s\\.d\\.s\\.Slot SLOT_(\\d+) \\[INFO\\] STATE (\\S+) msInState: (\\d+)(?: topo:(\\S+))?.* -> (\\S+) msInState");
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
        try (Stream<Path> files = Files.walk(logs)) {
            for (Path log : files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList()) {
                String daemon = logs.relativize(log).getName(0).toString();
                if (log.getFileName().toString().equals("worker.log")) {
                    lines.addAll(workerErrors(log, daemon + " " + log.getParent().getParent().getFileName() + ":" + log.getParent().getFileName()));
                } else {
                    for (String line : Files.readAllLines(log)) {
                        daemonEvent(daemon, line).ifPresent(lines::add);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the cluster's logs under " + logs, e);
        }
        lines.sort(Comparator.naturalOrder());
        return lines.subList(Math.max(0, lines.size() - LINES), lines.size()).stream()
            .map(l -> l.length() > WIDTH ? l.substring(0, WIDTH) + "…" : l).toList();
    }

    /** The digest as a block of text for a failure message. */
    static String text(Path logs) {
        List<String> lines = of(logs);
        return lines.isEmpty() ? "(no log under " + logs + ")"
            : "what the cluster logged about its workers (the latest " + lines.size() + " lines, " + logs + "):\n  " + String.join("\n  ", lines);
    }

    private static Optional<String> daemonEvent(String daemon, String line) {
        Matcher stamp = STAMP.matcher(line);
        if (!stamp.find()) {
            return Optional.empty();
        }
        String at = stamp.group(1) + stamp.group(2) + " " + daemon + " ";
        Matcher slot = SLOT_STATE.matcher(line);
        if (slot.find()) {
            return Optional.of(at + "slot " + slot.group(1) + ": " + slot.group(2) + " (" + slot.group(3) + " ms) -> " + slot.group(5)
                + (slot.group(4) == null ? "" : " " + slot.group(4)));
        }
        Matcher assignment = ASSIGNMENT.matcher(line);
        if (assignment.find()) {
            return Optional.of(at + "new assignment of " + assignment.group(1));
        }
        if (line.contains("not alive") || line.contains("[ERROR]")) {
            return Optional.of(at + line.substring(stamp.end()));
        }
        return Optional.empty();
    }

    private static List<String> workerErrors(Path log, String worker) throws IOException {
        List<String> errors = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            Matcher stamp = STAMP.matcher(line);
            boolean launch = line.contains("Launching worker for");
            boolean error = line.contains("[ERROR]") && !line.contains(RETRIED_CONNECTION) || line.contains("Halting process");
            if (stamp.find() && (launch || error && errors.stream().filter(e -> !e.contains(" launched")).count() < ERRORS_PER_WORKER)) {
                errors.add(stamp.group(1) + stamp.group(2) + " " + worker + (launch ? " launched" : " " + line.substring(stamp.end())));
            }
        }
        return errors;
    }
}
