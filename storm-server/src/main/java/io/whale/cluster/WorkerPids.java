package io.whale.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The live worker processes a Supervisor recorded under its local dir ({@code workers/ID/pids/PID}). */
public final class WorkerPids {
    private WorkerPids() {
    }

    /**
     * The pids of the workers emulated host {@code host} of the cluster in {@code layout} runs, ascending: those its
     * Supervisor recorded (host 0 runs none), as {@code local-cluster status --json} reports them.
     */
    public static List<Long> onHost(LocalClusterLayout layout, int host) {
        return host == 0 ? List.of()
            : under(layout.dataDir(LocalClusterLayout.supervisor(host))).stream().map(ProcessHandle::pid).sorted().toList();
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

    /**
     * Deletes every recorded worker pid under {@code dataDir}, once the workers are stopped. Storm's Supervisor, started
     * again on this state, would kill each recorded pid without asking whose it is by then (pids are reused: it once
     * stopped a Kafka broker started meanwhile); with the pids gone it finds its old workers dead and removes their folders.
     */
    static void forget(Path dataDir) {
        try {
            for (Path pid : pidFiles(dataDir)) {
                Files.deleteIfExists(pid);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isPidFile(Path p) {
        return p.getParent() != null && p.getParent().getFileName().toString().equals("pids")
            && p.getFileName().toString().chars().allMatch(Character::isDigit);
    }

    private static List<ProcessHandle> walk(Path dataDir) {
        return pidFiles(dataDir).stream()
            .map(p -> ProcessHandle.of(Long.parseLong(p.getFileName().toString())))
            .flatMap(Optional::stream)
            .filter(h -> h.info().commandLine().orElse("").contains("org.apache.storm.daemon.worker.Worker"))
            .toList();
    }

    /** The pid files the Supervisors recorded under {@code dataDir} ({@code …/pids/<pid>}); none without the folder. */
    private static List<Path> pidFiles(Path dataDir) {
        if (!Files.exists(dataDir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dataDir)) {
            return files.filter(WorkerPids::isPidFile).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
