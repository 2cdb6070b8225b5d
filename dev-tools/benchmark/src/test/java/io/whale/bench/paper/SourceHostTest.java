package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceHostTest {
    @TempDir
    Path logs;

    @Test
    void shouldFindTheHostWhoseWorkerLoadsTheBroadcastingComponent() throws Exception {
        workerLog(1, "paper-x-p8-r1-1-100", 16110, "Loading executor tasks matcher:[4, 4]\nLoading executor tasks aggregator:[2, 2]");
        workerLog(3, "paper-x-p8-r1-1-100", 16130, "Loading executor tasks matcher:[5, 5]\nLoading executor tasks orders:[9, 9]");
        workerLog(2, "paper-x-p8-r10-1-90", 16120, "Loading executor tasks orders:[9, 9]");
        workerLog(4, "paper-x-p8-r1-steps-2-200", 16140, "Loading executor tasks orders:[9, 9]");

        assertEquals(3, SourceHost.of(logs, "paper-x-p8-r1", "orders"), "not a topology whose name only starts the same");
        assertEquals(4, SourceHost.of(logs, "paper-x-p8-r1-steps", "orders"));
        assertThrows(IllegalStateException.class, () -> SourceHost.of(logs, "paper-x-p8-r1", "split"));
    }

    private void workerLog(int supervisor, String topologyId, int port, String text) throws Exception {
        Path dir = logs.resolve("supervisor-" + supervisor).resolve("workers-artifacts").resolve(topologyId).resolve(String.valueOf(port));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("worker.log"), text + "\n");
    }
}
