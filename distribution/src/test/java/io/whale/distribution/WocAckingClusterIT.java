package io.whale.distribution;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.examples.smoke.AckingTopology;
import io.whale.examples.smoke.AppendLog;
import io.whale.examples.smoke.PropertiesReport;
import io.whale.examples.smoke.RecordingBolt;
import io.whale.examples.smoke.ReliableIdSpout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * At-least-once across a worker crash on the real multi-process cluster, worker-oriented communication on:
 * a reliable spout sends ids to recording bolt tasks (all grouping) spread over two worker processes; mid-run
 * the test SIGKILLs the worker that does not run the spout. Its Supervisor restarts it, the lost tuple trees
 * time out and are replayed, and in the end every id is acked and every acked id is on record in every
 * bolt task (each task writes an id down before acking it).
 */
@SharedCluster.On(SharedCluster.Shape.TWO_SUPERVISORS)
class WocAckingClusterIT {
    private static final String NAME = "woc-acking";
    private static final int IDS = 3_000;
    private static final int TASKS = 6;

    @Test
    void killingAWorkerMidRunLosesNoAckedId(PrivateLocalCluster cluster) throws Exception {
        Path reports = cluster.dir().resolve(NAME);
        cluster.submit(List.of(WorkerLogs.CONSOLE_METRICS), AckingTopology.class.getName(), List.of("--name", NAME,
            "--ids", String.valueOf(IDS), "--rate", "150", "--parallelism", String.valueOf(TASKS), "--workers", "2",
            "--timeout-secs", "10", "--max-pending", "300", "--report-dir", reports.toString()));

        await("every task started and some ids acked").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
            .until(() -> taskPids(reports).size() == TASKS && acked(reports).size() >= IDS / 5);
        long spoutPid = Long.parseLong(spout(reports).getProperty("pid"));
        Map<Integer, List<Long>> before = taskPids(reports);
        long victim = before.values().stream().map(pids -> pids.get(pids.size() - 1)).filter(pid -> pid != spoutPid)
            .findFirst().orElseThrow(() -> new AssertionError("every bolt task runs in the spout's worker: " + before));
        int ackedBeforeKill = acked(reports).size();
        assertTrue(ackedBeforeKill < IDS, "the run ended before the kill");
        System.out.printf("killing worker %d (spout in %d) after %d of %d ids were acked; task pids %s%n", victim,
            spoutPid, ackedBeforeKill, IDS, before);
        ProcessHandle worker = ProcessHandle.of(victim).orElseThrow();
        assertTrue(worker.destroyForcibly(), "SIGKILL to worker " + victim);
        worker.onExit().get();

        await("every id acked").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
            .until(() -> acked(reports).size() == IDS && Long.parseLong(spout(reports).getProperty("acked")) == IDS);

        Properties spout = spout(reports);
        System.out.println("spout: " + new TreeMap<>(spout));
        Map<Integer, List<Long>> after = taskPids(reports);
        System.out.println("task pids: " + after);
        assertEquals(spoutPid, Long.parseLong(spout.getProperty("pid")), "the spout's worker kept running");
        assertTrue(Long.parseLong(spout.getProperty("failed")) >= 1, "no tuple tree failed after the kill: " + spout);
        assertTrue(Long.parseLong(spout.getProperty("replayed")) >= 1, "no id was replayed: " + spout);
        List<Integer> restarted = before.entrySet().stream().filter(e -> e.getValue().contains(victim))
            .map(Map.Entry::getKey).toList();
        assertFalse(restarted.isEmpty());
        for (int task : restarted) {
            long now = after.get(task).get(after.get(task).size() - 1);
            assertNotEquals(victim, now, "task " + task + " did not restart after its worker was killed");
            assertTrue(ProcessHandle.of(now).map(ProcessHandle::isAlive).orElse(false), "task " + task + " runs in " + now);
        }

        Set<Integer> acked = acked(reports);
        assertEquals(IDS, acked.size());
        assertEquals(TASKS, after.size());
        for (int task : after.keySet()) {
            Set<Integer> received = received(reports, task);
            Set<Integer> missing = acked.stream().filter(id -> !received.contains(id)).collect(Collectors.toCollection(TreeSet::new));
            assertTrue(missing.isEmpty(), "task " + task + " has no record of " + missing.size() + " acked ids, e.g. "
                + missing.stream().limit(10).toList());
        }

        // the console reporter prints every 5 s: the killed worker may have died before its first report, and
        // the restarted one may not have reported yet when the last id is acked
        await("a BatchTuple frame counted in a worker's report").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1))
            .until(() -> cluster.workerLogs(NAME).lastCountIfPrinted("woc-frames-received") > 0);
        WorkerLogs logs = cluster.workerLogs(NAME);
        assertTrue(logs.contains("Worker-oriented communication (whale.woc.enabled): on"));
        assertEquals(0, logs.lastCount("woc-frames-malformed"));
        cluster.killAndAwaitExit(NAME);
    }

    private static Set<Integer> acked(Path reports) {
        Path log = reports.resolve(ReliableIdSpout.ACKED_LOG);
        return Files.exists(log) ? ids(log) : Set.of();
    }

    private static Set<Integer> received(Path reports, int task) {
        return ids(RecordingBolt.receivedLog(reports, task));
    }

    private static Set<Integer> ids(Path log) {
        return AppendLog.read(log).stream().map(Integer::valueOf).collect(Collectors.toSet());
    }

    private static Properties spout(Path reports) {
        return PropertiesReport.read(reports.resolve(ReliableIdSpout.REPORT));
    }

    /** Bolt task id -> the pids of the workers it has started in, oldest first. */
    private static Map<Integer, List<Long>> taskPids(Path reports) {
        if (!Files.isDirectory(reports)) {
            return Map.of();
        }
        try (Stream<Path> files = Files.list(reports)) {
            Map<Integer, List<Long>> pids = new TreeMap<>();
            for (Path f : files.filter(f -> f.getFileName().toString().matches("pids-\\d+\\.log")).toList()) {
                String name = f.getFileName().toString();
                int task = Integer.parseInt(name.substring(5, name.length() - 4));
                List<Long> started = AppendLog.read(RecordingBolt.pidsLog(reports, task)).stream().map(Long::valueOf).toList();
                if (!started.isEmpty()) {
                    pids.put(task, started);
                }
            }
            return pids;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
