package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterLogDigestTest {
    private static final String WORKER_LOG = "supervisor-1/workers-artifacts/ui-smoke-1-17/16110/worker.log";

    @TempDir
    Path logs;

    @Test
    void shouldTellAWorkersLaunchesItsSlotsStatesAndItsErrorsInTimeOrder() throws IOException {
        write("nimbus/nimbus.log",
            "2026-12-01 17:05:53.527 o.a.s.d.n.Nimbus timer [INFO] Setting new assignment for topology id ui-smoke-1-17: Assignment(...)",
            "2026-12-01 17:05:53.600 o.a.s.d.n.Nimbus timer [INFO] something else");
        write("supervisor-1/supervisor.log",
            "2026-12-01 17:05:54.217 o.a.s.d.s.Slot SLOT_16110 [INFO] STATE empty msInState: 4056 -> waiting-for-blob-localization msInState: 1",
            "2026-12-01 17:05:55.190 o.a.s.d.s.Slot SLOT_16110 [INFO] STATE waiting-for-blob-localization msInState: 18 -> waiting-for-worker-start"
                + " msInState: 0 topo:ui-smoke-1-17 worker:62d0",
            "2026-12-01 17:06:40.200 o.a.s.d.s.Slot SLOT_16110 [INFO] STATE running msInState: 27018 topo:ui-smoke-1-17 worker:62d0 -> kill"
                + " msInState: 0 topo:ui-smoke-1-17 worker:62d0");
        write(WORKER_LOG,
            "2026-12-01 17:05:59.355 o.a.s.d.w.Worker main [INFO] Launching worker for ui-smoke-1-17 on s:16110",
            "2026-12-01 17:06:01.068 o.a.s.m.n.Client client-worker-1 [ERROR] connection attempt 1 to Netty-Client-/127.0.0.1:16120 failed",
            "2026-12-01 17:06:30.000 o.a.s.u.Utils Thread-5 [ERROR] Halting process: Worker died",
            "2026-12-01 17:06:45.000 o.a.s.d.w.Worker main [INFO] Launching worker for ui-smoke-1-17 on s:16110");

        assertEquals(List.of(
            "2026-12-01 17:05:53.527 nimbus new assignment of ui-smoke-1-17",
            "2026-12-01 17:05:54.217 supervisor-1 slot 16110: empty (4056 ms) -> waiting-for-blob-localization",
            "2026-12-01 17:05:55.190 supervisor-1 slot 16110: waiting-for-blob-localization (18 ms) -> waiting-for-worker-start ui-smoke-1-17",
            "2026-12-01 17:05:59.355 supervisor-1 ui-smoke-1-17:16110 launched",
            "2026-12-01 17:06:30.000 supervisor-1 ui-smoke-1-17:16110 o.a.s.u.Utils Thread-5 [ERROR] Halting process: Worker died",
            "2026-12-01 17:06:40.200 supervisor-1 slot 16110: running (27018 ms) -> kill ui-smoke-1-17",
            "2026-12-01 17:06:45.000 supervisor-1 ui-smoke-1-17:16110 launched"), ClusterLogDigest.of(logs));
    }

    @Test
    void shouldKeepAWorkersHaltAndItsLatestErrors() throws IOException {
        List<String> lines = new ArrayList<>(IntStream.range(0, 10).mapToObj(
            i -> String.format("2026-12-01 17:06:%02d.000 o.a.s.m.n.Client client-worker-1 [ERROR] failed to send %d messages", i, i)).toList());
        lines.add("2026-12-01 17:06:20.000 o.a.s.u.Utils Thread-5 [ERROR] Halting process: Worker died");
        write(WORKER_LOG, lines.toArray(String[]::new));

        List<String> digest = ClusterLogDigest.of(logs);

        assertEquals(ClusterLogDigest.ERRORS_PER_WORKER + 1, digest.size(), digest.toString());
        assertTrue(digest.get(0).endsWith("failed to send 7 messages"), digest.toString());
        assertTrue(digest.get(digest.size() - 1).endsWith("Halting process: Worker died"), digest.toString());
    }

    @Test
    void shouldCountTheExecutorsNimbusFoundNotAliveInOneLinePerTopology() throws IOException {
        write("nimbus/nimbus.log", IntStream.range(0, 40).mapToObj(
            i -> String.format("2026-12-01 17:07:%02d.000 o.a.s.d.n.HeartbeatCache timer [INFO] Executor ui-smoke-1-17:[%d %d] not alive", i, i % 4, i % 4))
            .toArray(String[]::new));

        assertEquals(List.of("2026-12-01 17:07:00.000 nimbus executors of ui-smoke-1-17 not alive: 40 report(s), the last at 17:07:39.000"),
            ClusterLogDigest.of(logs));
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
