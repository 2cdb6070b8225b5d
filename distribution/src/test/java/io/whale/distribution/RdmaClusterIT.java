package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.whale.examples.smoke.SmokeReports;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
        Smoke smoke = smoke("target/e2e-rdma-cluster", TASKS, 2, "whale.rdma.secret=" + SECRET);
        assertTrue(smoke.reports().workerPids().size() > 1, "tasks ran in one worker process only: " + smoke.reports().workerPids());
        assertTrue(smoke.run().output().contains("RESULT: PASS"), smoke.run().output());

        WorkerLogs workerLogs = smoke.workerLogs();
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
        // 8 tuples in flight per destination worker: without credit the source stalls after a few frames
        Smoke smoke = smoke("target/e2e-rdma-tree", 6, 3, "whale.multicast.structure=nonblocking", "whale.woc.window.tuples=8");
        assertEquals(3, smoke.reports().workerPids().size(), "tasks ran in three workers: " + smoke.reports().workerPids());

        WorkerLogs workerLogs = smoke.workerLogs();
        assertTrue(workerLogs.contains("multicast (whale.multicast.structure): nonblocking, d* live"),
            "the trees are reshaped live over RDMA, not fixed");
        assertTrue(workerLogs.lastCount("relay-frames-sent") > 0, "the broadcast went along the trees");
        assertTrue(workerLogs.lastCount("rdma-messages-received") > 0, "worker traffic went over the RDMA transport");
        assertEquals(0, workerLogs.lastCount("relay-tuples-lost"));
        assertEquals(0, workerLogs.lastCount("rdma-messages-dropped"));
    }

    private record Smoke(WhaleCli.Result run, SmokeReports reports, WorkerLogs workerLogs) {
    }

    /**
     * {@code whale demo smoke} over the RDMA transport with {@code overrides}, in {@code dir}: every one of its
     * {@code tasks} tasks got every tuple, and the demo ended well.
     */
    private static Smoke smoke(String dir, int tasks, int workers, String... overrides) throws Exception {
        assumeTrue(WhaleCli.privateNetworkAvailable(), "needs root for a private network namespace (unshare --net)");
        Path demoDir = Path.of(dir).toAbsolutePath();
        WhaleCli.deleteRecursively(demoDir);
        List<String> command = new ArrayList<>(List.of(WhaleCli.BIN.toString(), "-c", "whale.transport=rdma", "-c", WorkerLogs.CONSOLE_METRICS));
        for (String override : overrides) {
            command.addAll(List.of("-c", override));
        }
        command.addAll(List.of("demo", "smoke", "--tuples", String.valueOf(TUPLES), "--parallelism", String.valueOf(tasks),
            "--workers", String.valueOf(workers)));
        WhaleCli.Result run = WhaleCli.run(Duration.ofMinutes(8), Map.of("WHALE_DEMO_DIR", demoDir.toString()), command);
        System.out.println(run.output());

        SmokeReports reports = SmokeReports.read(demoDir.resolve("smoke-report"));
        assertEquals(tasks, reports.tasks().size(), run.output());
        for (SmokeReports.Task task : reports.tasks()) {
            assertEquals(TUPLES, task.distinct(), "task " + task.task() + " missed tuples:\n" + reports.describe());
        }
        assertEquals(0, run.exit(), run.output());
        return new Smoke(run, reports, WorkerLogs.under(demoDir.resolve("logs")));
    }
}
