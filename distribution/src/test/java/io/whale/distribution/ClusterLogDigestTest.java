package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterLogDigestTest {
    @TempDir
    Path logs;

    @Test
    void shouldTellAWorkersLaunchesItsSlotsStatesAndItsErrorsInTimeOrder() throws IOException {
        write("nimbus/nimbus.log",
            "2026-12-01 17:05:53.527 o.a.s.d.n.Nimbus timer [INFO] Setting new assignment for topology id ui-smoke-1-17: Assignment(...)",
            "2026-12-01 17:05:53.600 o.a.s.d.n.Nimbus timer [INFO] something else");
        write("supervisor-1/supervisor.log",
            "2026-12-01 17:05:54.217 o.a.s.d.s.Slot SLOT_16110 [INFO] STATE empty msInState: 4056 -> waiting-for-blob-localization msInState: 1",
            "2026-12-01 17:06:40.200 o.a.s.d.s.Slot SLOT_16110 [INFO] STATE running msInState: 27018 topo:ui-smoke-1-17 worker:62d0 -> kill msInState: 0");
        write("supervisor-1/workers-artifacts/ui-smoke-1-17/16110/worker.log",
            "2026-12-01 17:05:59.355 o.a.s.d.w.Worker main [INFO] Launching worker for ui-smoke-1-17 on s:16110",
            "2026-12-01 17:06:01.068 o.a.s.m.n.Client client-worker-1 [ERROR] connection attempt 1 to Netty-Client-/127.0.0.1:16120 failed",
            "2026-12-01 17:06:30.000 o.a.s.u.Utils Thread-5 [ERROR] Halting process: Worker died",
            "2026-12-01 17:06:45.000 o.a.s.d.w.Worker main [INFO] Launching worker for ui-smoke-1-17 on s:16110");

        assertEquals(List.of(
            "2026-12-01 17:05:53.527 nimbus new assignment of ui-smoke-1-17",
            "2026-12-01 17:05:54.217 supervisor-1 slot 16110: empty (4056 ms) -> waiting-for-blob-localization",
            "2026-12-01 17:05:59.355 supervisor-1 ui-smoke-1-17:16110 launched",
            "2026-12-01 17:06:30.000 supervisor-1 ui-smoke-1-17:16110 o.a.s.u.Utils Thread-5 [ERROR] Halting process: Worker died",
            "2026-12-01 17:06:40.200 supervisor-1 slot 16110: running (27018 ms) -> kill ui-smoke-1-17",
            "2026-12-01 17:06:45.000 supervisor-1 ui-smoke-1-17:16110 launched"), ClusterLogDigest.of(logs));
    }

    @Test
    void shouldKeepOnlyTheLatestLines() throws IOException {
        write("nimbus/nimbus.log", IntStream.range(0, 50).mapToObj(
            i -> String.format("2026-12-01 17:%02d:00.000 o.a.s.d.n.Nimbus timer [INFO] Setting new assignment for topology id t-%d: A", i, i))
            .toArray(String[]::new));

        List<String> digest = ClusterLogDigest.of(logs);

        assertEquals(ClusterLogDigest.LINES, digest.size());
        assertTrue(digest.get(digest.size() - 1).endsWith("t-49"), digest.toString());
    }

    private void write(String path, String... lines) throws IOException {
        Path file = logs.resolve(path);
        Files.createDirectories(file.getParent());
        Files.write(file, List.of(lines));
    }
}
