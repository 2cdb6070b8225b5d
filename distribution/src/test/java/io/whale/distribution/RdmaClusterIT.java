package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.whale.examples.smoke.SmokeReports;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The smoke topology on the real multi-process cluster with {@code -c whale.transport=rdma}: the workers load
 * the RDMA messaging plugin from lib-worker/, talk over UCX (shared memory or TCP on this machine), and every
 * all-grouped tuple reaches every task of both workers as WOC frames; the explicit topology secret given on the
 * command line is masked in the workers' logs. Along a live non-blocking tree, with frame windows of a few tuples
 * that only the credit coming back over the RDMA transport opens again, every tuple reaches every task of three
 * workers too.
 */
class RdmaClusterIT {
    private static final int TUPLES = 1_000;
    private static final int TASKS = 4;
    private static final String SECRET = "it-secret-" + java.util.UUID.randomUUID();

    @Test
    void everyTaskReceivesEveryTupleWhenWorkersTalkOverTheRdmaTransport() throws Exception {
        assumeTrue(WhaleCli.privateNetworkAvailable(), "needs root for a private network namespace (unshare --net)");
        Path dir = Path.of("target/e2e-rdma-cluster").toAbsolutePath();
        WhaleCli.deleteRecursively(dir);

        WhaleCli.Result run = WhaleCli.run(Duration.ofMinutes(8), Map.of("WHALE_DEMO_DIR", dir.toString()),
            List.of(WhaleCli.BIN.toString(), "-c", "whale.transport=rdma", "-c", "whale.rdma.secret=" + SECRET,
                "-c", WorkerLogs.CONSOLE_METRICS,
                "demo", "smoke", "--tuples", String.valueOf(TUPLES), "--parallelism", String.valueOf(TASKS),
                "--workers", "2"));
        System.out.println(run.output());

        SmokeReports reports = SmokeReports.read(dir.resolve("smoke-report"));
        assertEquals(TASKS, reports.tasks().size(), run.output());
        for (SmokeReports.Task task : reports.tasks()) {
            assertEquals(TUPLES, task.distinct(), "task " + task.task() + " missed tuples:\n" + reports.describe());
        }
        assertTrue(reports.workerPids().size() > 1, "tasks ran in one worker process only: " + reports.workerPids());
        assertEquals(0, run.exit(), run.output());
        assertTrue(run.output().contains("RESULT: PASS"), run.output());

        WorkerLogs workerLogs = WorkerLogs.under(dir.resolve("logs"));
        assertTrue(workerLogs.contains("Storm peer transport plugin:io.whale.rdma.storm.RdmaContext"));
        assertTrue(workerLogs.contains("RDMA transport for whale-smoke"), "the plugin started its provider");
        assertTrue(workerLogs.lastCount("rdma-messages-received") > 0, "worker traffic went over the RDMA transport");
        assertTrue(workerLogs.lastCount("woc-frames-received") > 0, "the broadcast crossed workers as WOC frames");
        assertEquals(0, workerLogs.lastCount("rdma-messages-dropped"));
        assertTrue(workerLogs.contains("whale.rdma.secret=*****"), "the worker logs its topology conf, secret masked");
        assertFalse(workerLogs.contains(SECRET), "an explicit whale.rdma.secret never reaches a worker log in clear");
    }

    @Test
    void everyTaskReceivesEveryTupleAlongALiveTreeWhoseCreditComesBackOverTheRdmaTransport() throws Exception {
        assumeTrue(WhaleCli.privateNetworkAvailable(), "needs root for a private network namespace (unshare --net)");
        Path dir = Path.of("target/e2e-rdma-tree").toAbsolutePath();
        WhaleCli.deleteRecursively(dir);
        int tasks = 6;

        // 8 tuples in flight per destination worker: without credit the source stalls after a few frames
        WhaleCli.Result run = WhaleCli.run(Duration.ofMinutes(8), Map.of("WHALE_DEMO_DIR", dir.toString()),
            List.of(WhaleCli.BIN.toString(), "-c", "whale.transport=rdma", "-c", "whale.multicast.structure=nonblocking",
                "-c", "whale.woc.window.tuples=8", "-c", WorkerLogs.CONSOLE_METRICS,
                "demo", "smoke", "--tuples", String.valueOf(TUPLES), "--parallelism", String.valueOf(tasks),
                "--workers", "3"));
        System.out.println(run.output());

        SmokeReports reports = SmokeReports.read(dir.resolve("smoke-report"));
        assertEquals(tasks, reports.tasks().size(), run.output());
        for (SmokeReports.Task task : reports.tasks()) {
            assertEquals(TUPLES, task.distinct(), "task " + task.task() + " missed tuples:\n" + reports.describe());
        }
        assertEquals(3, reports.workerPids().size(), "tasks ran in three workers: " + reports.workerPids());
        assertEquals(0, run.exit(), run.output());

        WorkerLogs workerLogs = WorkerLogs.under(dir.resolve("logs"));
        assertTrue(workerLogs.contains("multicast (whale.multicast.structure): nonblocking, d* live"),
            "the trees are reshaped live over RDMA, not fixed");
        assertTrue(workerLogs.lastCount("relay-frames-sent") > 0, "the broadcast went along the trees");
        assertTrue(workerLogs.lastCount("rdma-messages-received") > 0, "worker traffic went over the RDMA transport");
        assertEquals(0, workerLogs.lastCount("relay-tuples-lost"));
        assertEquals(0, workerLogs.lastCount("rdma-messages-dropped"));
    }
}
