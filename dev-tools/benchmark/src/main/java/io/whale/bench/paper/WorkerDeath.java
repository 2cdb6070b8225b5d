package io.whale.bench.paper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Why a run's worker died, from its log: Storm's worker logs {@code Received error in thread … terminating worker...}
 * and then the error, whose first line names the cause (a missing native library, a bad key). A run that made no
 * progress says it instead of only that the reporter counted nothing.
 */
final class WorkerDeath {
    private static final String TERMINATING = "terminating worker";
    private static final int MAX_CHARS = 600;

    private WorkerDeath() {
    }

    /** The first death among the topology's worker logs under {@code logs}: the log and the error's first line. */
    static Optional<String> of(Path logs, String topology) throws IOException {
        if (!Files.isDirectory(logs)) {
            return Optional.empty();
        }
        for (Path log : SourceHost.workerLogs(logs, topology)) {
            List<String> lines = Files.readAllLines(log);
            for (int i = 0; i + 1 < lines.size(); i++) {
                if (lines.get(i).contains(TERMINATING)) {
                    String error = lines.get(i + 1).strip();
                    return Optional.of(log + ": " + (error.length() > MAX_CHARS ? error.substring(0, MAX_CHARS) + "…" : error));
                }
            }
        }
        return Optional.empty();
    }
}
