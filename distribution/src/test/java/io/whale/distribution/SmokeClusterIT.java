package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.whale.examples.smoke.SmokeReports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * End to end on real processes: {@code whale demo smoke} brings up ZooKeeper, Nimbus and two
 * Supervisors with {@code local-cluster up --supervisors 2}, submits the all-grouping smoke topology with
 * {@code whale jar}, and brings everything down. The whole run happens in a private network namespace,
 * so nothing the daemons bind is reachable from outside this test, and the daemons and workers run as an
 * unprivileged user ({@code WHALE_DAEMON_USER}), the cluster's folder and conf staying root's.
 */
class SmokeClusterIT {
    private static final String VERSION = System.getProperty("whale.version");
    private static final int TUPLES = 1_000;
    private static final int TASKS = 4;
    /** The demo's cluster runs its daemons, and so the smoke topology's code, as this unprivileged user (issue 34). */
    private static final String DAEMON_USER = "nobody";

    @Test
    void everyBoltTaskReceivesEveryTupleAcrossWorkerProcesses() throws Exception {
        assumeTrue(WhaleCli.privateNetworkAvailable(), "needs root for a private network namespace (unshare --net)");
        Path dir = Path.of("target/e2e-cluster").toAbsolutePath();
        WhaleCli.deleteRecursively(dir);

        WhaleCli.Result run = WhaleCli.run(Duration.ofMinutes(8), Map.of("WHALE_DEMO_DIR", dir.toString(), "WHALE_DAEMON_USER", DAEMON_USER),
            List.of(WhaleCli.BIN.toString(), "-c", WorkerLogs.CONSOLE_METRICS, "demo", "smoke",
                "--tuples", String.valueOf(TUPLES), "--parallelism", String.valueOf(TASKS), "--workers", "2"));
        System.out.println(run.output());
        assertTrue(run.output().contains("running the demo in a private network namespace"), run.output());

        SmokeReports reports = SmokeReports.read(dir.resolve("data/smoke-report"));
        assertEquals(TASKS, reports.tasks().size(), run.output());
        for (SmokeReports.Task task : reports.tasks()) {
            assertEquals(TUPLES, task.distinct(), "task " + task.task() + " missed tuples:\n" + reports.describe());
            assertTrue(task.received() >= TUPLES);
        }
        assertTrue(reports.workerPids().size() > 1, "tasks ran in one worker process only: " + reports.workerPids());
        assertFalse(reports.peers().isEmpty(), "workers report their connections");
        assertEquals(List.of("127.0.0.1"), List.copyOf(reports.peers()), "every worker connection goes to loopback");
        assertTrue(run.output().contains("daemons and workers run as " + DAEMON_USER + " (uid "), run.output());
        assertEquals(List.of(DAEMON_USER), List.copyOf(reports.users()), "the topology's code ran as " + DAEMON_USER);
        assertEquals(DAEMON_USER, Files.getOwner(dir.resolve("logs/nimbus/nimbus.log")).getName(), "Nimbus wrote its log as " + DAEMON_USER);
        assertEquals("root", Files.getOwner(dir.resolve("conf/storm.yaml")).getName(), "what root reads stays root's");
        assertEquals("root", Files.getOwner(dir).getName(), "the cluster's folder stays root's");

        assertEquals(0, run.exit(), run.output());
        assertTrue(run.output().contains("RESULT: PASS"), run.output());
        assertTrue(run.output().contains("is down"), run.output());
        for (long pid : reports.workerPids()) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "worker " + pid + " outlived the cluster");
        }
        try (Stream<Path> pids = Files.list(dir.resolve("pids"))) {
            assertEquals(0, pids.count(), "every daemon was stopped by its pid");
        }
        WorkerLogs workerLogs = WorkerLogs.under(dir.resolve("logs"));
        assertTrue(workerLogs.contains("Worker core: Whale " + VERSION + " (Apache Storm 2.8.3)"));
        // conf/storm.yaml switches worker-oriented communication on: the broadcast crossed workers as frames.
        assertTrue(workerLogs.contains("Worker-oriented communication (whale.woc.enabled): on"));
        assertTrue(workerLogs.lastCount("woc-frames-received") > 0, "no BatchTuple frame arrived");
        assertEquals(0, workerLogs.lastCount("woc-frames-malformed"));
    }
}
