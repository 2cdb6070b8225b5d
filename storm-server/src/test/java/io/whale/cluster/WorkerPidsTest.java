package io.whale.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerPidsTest {
    @Test
    void shouldForgetTheRecordedWorkerPidsSoThatARestartedSupervisorKillsNoReusedPid(@TempDir Path data) throws Exception {
        // a pid that names a live process by now, this test's JVM, as a reused pid would
        Path reused = Files.createDirectories(data.resolve("supervisor-1/workers/w1/pids"))
            .resolve(String.valueOf(ProcessHandle.current().pid()));
        Files.createFile(reused);
        Path dead = Files.createDirectories(data.resolve("supervisor-2/workers/w2/pids")).resolve("999999999");
        Files.createFile(dead);
        Path heartbeat = Files.createDirectories(data.resolve("supervisor-1/workers/w1/heartbeats")).resolve("1700000000000");
        Files.createFile(heartbeat);

        assertEquals(List.of(), WorkerPids.under(data), "a pid that is no worker's now is never stopped");
        WorkerPids.forget(data);

        assertFalse(Files.exists(reused));
        assertFalse(Files.exists(dead));
        assertTrue(Files.exists(heartbeat), "only the pids go: the Supervisor removes its old workers' folders itself");
        WorkerPids.forget(data.resolve("absent"));
    }
}
