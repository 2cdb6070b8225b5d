package io.whale.bench.paper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Whether a run's workers were launched again while it ran. Storm's worker logs {@code Launching worker for
 * TOPOLOGY-ID} at each start, into its slot's {@code worker.log} (a relaunch on the same slot appends to it). More
 * launches than the run's workers means Nimbus found executors not alive and assigned them again — on 2026-12-01 a
 * pause of the whole machine let every ZooKeeper session time out mid-run — and the Kafka spout started again from
 * its committed offsets: the run measured a restart, not the system. Storm logs no death for it ({@link WorkerDeath}).
 */
final class WorkerLaunches {
    private static final String LAUNCHING = "Launching worker for ";

    private WorkerLaunches() {
    }

    /** What says that {@code topology}'s workers under {@code logs} started more than {@code workers} times; empty when not. */
    static Optional<String> again(Path logs, String topology, int workers) throws IOException {
        if (!Files.isDirectory(logs)) {
            return Optional.empty();
        }
        long launches = 0;
        List<String> perLog = new ArrayList<>();
        for (Path log : SourceHost.workerLogs(logs, topology)) {
            long here;
            try (Stream<String> lines = Files.lines(log)) {
                here = lines.filter(l -> l.contains(LAUNCHING)).count();
            }
            launches += here;
            perLog.add(logs.relativize(log) + " " + here);
        }
        return launches <= workers ? Optional.empty()
            : Optional.of("its " + workers + " worker(s) were launched " + launches + " times (" + String.join(", ", perLog)
                + "): Nimbus assigned them again mid-run (its log says why), so the run measured a restart, not the system");
    }
}
