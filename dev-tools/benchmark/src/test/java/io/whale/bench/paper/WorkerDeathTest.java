package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerDeathTest {
    @TempDir
    Path logs;

    @Test
    void shouldNameTheErrorThatTerminatedAWorkerOfTheRun() throws Exception {
        assertEquals(Optional.empty(), WorkerDeath.of(logs.resolve("none"), "paper-x-p8-r1"), "no logs yet");
        workerLog(1, "paper-x-p8-r1-1-100", "2026-11-30 07:10:01.000 o.a.s.d.w.Worker main [INFO] Launching worker\n");
        workerLog(2, "paper-x-p8-r1-steps-2-200", "x [ERROR] Received error in thread main.. terminating worker...\n"
            + "java.lang.Error: not this run's\n");
        assertEquals(Optional.empty(), WorkerDeath.of(logs, "paper-x-p8-r1"), "a worker that did not die; another topology's");

        workerLog(3, "paper-x-p8-r1-1-100", "2026-11-30 07:10:02.000 o.a.s.u.Utils Thread-7 [ERROR] Received error in thread "
            + "Thread-7.. terminating worker...\njava.lang.Error: io.whale.rdma.RdmaException: whale.rdma.provider=ucx needs the UCX "
            + "native libraries\n\tat org.apache.storm.utils.Utils.handleUncaughtException(Utils.java:668)\n");
        String death = WorkerDeath.of(logs, "paper-x-p8-r1").orElseThrow();
        assertTrue(death.endsWith("worker.log: java.lang.Error: io.whale.rdma.RdmaException: whale.rdma.provider=ucx needs the UCX "
            + "native libraries"), death);
        assertTrue(death.contains("supervisor-3"), death);
    }

    private void workerLog(int supervisor, String topologyId, String text) throws Exception {
        Path dir = logs.resolve("supervisor-" + supervisor).resolve("workers-artifacts").resolve(topologyId).resolve("1610" + supervisor);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("worker.log"), text);
    }
}
