package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerLaunchesTest {
    private static final String LAUNCH = "2026-12-01 21:47:56.986 o.a.s.d.w.Worker main [INFO] Launching worker for %s on n:1613%d with id w\n";

    @TempDir
    Path logs;

    @Test
    void shouldSayNothingWhenEachWorkerOfTheRunStartedOnce() throws Exception {
        assertEquals(Optional.empty(), WorkerLaunches.again(logs.resolve("none"), "paper-x-p8-r3", 2), "no logs yet");
        workerLog(1, "paper-x-p8-r3-5-100", String.format(LAUNCH, "paper-x-p8-r3-5-100", 1));
        workerLog(2, "paper-x-p8-r3-5-100", String.format(LAUNCH, "paper-x-p8-r3-5-100", 2));
        workerLog(3, "paper-x-p8-r3-steps-6-200", String.format(LAUNCH, "paper-x-p8-r3-steps-6-200", 3).repeat(2));
        assertEquals(Optional.empty(), WorkerLaunches.again(logs, "paper-x-p8-r3", 2), "another topology's relaunch is not this run's");
    }

    @Test
    void shouldNameTheRunsWorkersLaunchedAgainOnTheirSlotOrOnAnother() throws Exception {
        workerLog(1, "paper-x-p8-r3-5-100", String.format(LAUNCH, "paper-x-p8-r3-5-100", 1).repeat(2));
        workerLog(2, "paper-x-p8-r3-5-100", String.format(LAUNCH, "paper-x-p8-r3-5-100", 2));
        String again = WorkerLaunches.again(logs, "paper-x-p8-r3", 2).orElseThrow();
        assertTrue(again.startsWith("its 2 worker(s) were launched 3 times"), again);
        assertTrue(again.contains("supervisor-1"), again);

        workerLog(1, "paper-x-p8-r3-5-100", String.format(LAUNCH, "paper-x-p8-r3-5-100", 1));
        workerLog(3, "paper-x-p8-r3-5-100", String.format(LAUNCH, "paper-x-p8-r3-5-100", 3));
        assertTrue(WorkerLaunches.again(logs, "paper-x-p8-r3", 2).isPresent(), "moved to a third host: three launches for two workers");
    }

    private void workerLog(int supervisor, String topologyId, String text) throws Exception {
        Path dir = logs.resolve("supervisor-" + supervisor).resolve("workers-artifacts").resolve(topologyId).resolve("1613" + supervisor);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("worker.log"), text);
    }
}
