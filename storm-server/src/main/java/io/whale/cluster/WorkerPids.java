package io.whale.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The live worker processes a Supervisor recorded under its local dir ({@code workers/ID/pids/PID}). */
final class WorkerPids {
    private WorkerPids() {
    }

    static List<ProcessHandle> under(Path dataDir) {
        // A Supervisor removes a stopped worker's folder at any time: a walk that meets a vanishing folder is retried.
        for (int attempt = 1; ; attempt++) {
            try {
                return walk(dataDir);
            } catch (UncheckedIOException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    private static List<ProcessHandle> walk(Path dataDir) {
        if (!Files.exists(dataDir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dataDir)) {
            return files.filter(p -> p.getParent() != null && p.getParent().getFileName().toString().equals("pids"))
                .map(p -> p.getFileName().toString())
                .filter(n -> n.chars().allMatch(Character::isDigit))
                .map(n -> ProcessHandle.of(Long.parseLong(n)))
                .flatMap(Optional::stream)
                .filter(h -> h.info().commandLine().orElse("").contains("org.apache.storm.daemon.worker.Worker"))
                .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
