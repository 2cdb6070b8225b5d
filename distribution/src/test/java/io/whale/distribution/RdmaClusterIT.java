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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The smoke topology on the real multi-process cluster with {@code -c whale.transport=rdma}, run once ({@code whale
 * demo smoke}) for both tests: the workers load the RDMA messaging plugin from lib-worker/, talk over UCX (shared memory
 * or TCP on this machine), and every all-grouped tuple reaches every task of the three workers; the explicit topology
 * secret given on the command line is masked in the workers' logs. The broadcast goes along a live non-blocking tree,
 * with frame windows of a few tuples that only the credit coming back over the RDMA transport opens again.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RdmaClusterIT {
    private static final int TUPLES = 1_000;
    private static final int TASKS = 6;
    private static final int WORKERS = 3;
    private static final String SECRET = "it-secret-" + java.util.UUID.randomUUID();

    private WhaleCli.Result run;
    private SmokeReports reports;
    private WorkerLogs workerLogs;

    /**
     * {@code whale demo smoke} over the RDMA transport: one run, as each of its clusters costs a minute of the build; 8
     * tuples in flight per destination worker, so that without credit the source stalls after a few frames.
     */
    @BeforeAll
    void runTheSmokeDemoOverRdma() throws Exception {
        assumeTrue(WhaleCli.privateNetworkAvailable(), "needs root for a private network namespace (unshare --net)");
        Path demoDir = Path.of("target/e2e-rdma-cluster").toAbsolutePath();
        WhaleCli.deleteRecursively(demoDir);
        List<String> command = new ArrayList<>(List.of(WhaleCli.BIN.toString(), "-c", "whale.transport=rdma", "-c", WorkerLogs.CONSOLE_METRICS,
            "-c", "whale.rdma.secret=" + SECRET, "-c", "whale.multicast.structure=nonblocking", "-c", "whale.woc.window.tuples=8"));
        command.addAll(List.of("demo", "smoke", "--tuples", String.valueOf(TUPLES), "--parallelism", String.valueOf(TASKS),
            "--workers", String.valueOf(WORKERS)));
        run = WhaleCli.run(Duration.ofMinutes(8), Map.of("WHALE_DEMO_DIR", demoDir.toString()), command);
        System.out.println(run.output());
        reports = SmokeReports.read(demoDir.resolve("data/smoke-report"));
        workerLogs = WorkerLogs.under(demoDir.resolve("logs"));
    }

    @Test
    void everyTaskReceivesEveryTupleWhenWorkersTalkOverTheRdmaTransport() {
        assertEquals(TASKS, reports.tasks().size(), run.output());
        for (SmokeReports.Task task : reports.tasks()) {
            assertEquals(TUPLES, task.distinct(), "task " + task.task() + " missed tuples:\n" + reports.describe());
        }
        assertEquals(WORKERS, reports.workerPids().size(), "tasks ran in three workers: " + reports.workerPids());
        assertEquals(0, run.exit(), run.output());
        assertTrue(run.output().contains("RESULT: PASS"), run.output());

        assertTrue(workerLogs.contains("Storm peer transport plugin:io.whale.rdma.storm.RdmaContext"));
        assertTrue(workerLogs.contains("RDMA transport for whale-smoke"), "the plugin started its provider");
        assertTrue(workerLogs.lastCount("rdma-messages-received") > 0, "worker traffic went over the RDMA transport");
        assertTrue(workerLogs.lastCount("woc-frames-received") > 0, "the broadcast crossed workers as WOC frames");
        assertEquals(0, workerLogs.lastCount("rdma-messages-dropped"));
    }

    @Test
    void shouldMaskAnExplicitRdmaSecretInTheWorkersLogs() {
        assertTrue(workerLogs.contains("whale.rdma.secret=*****"), "the worker logs its topology conf, secret masked");
        assertFalse(workerLogs.contains(SECRET), "an explicit whale.rdma.secret never reaches a worker log in clear");
    }

    @Test
    void everyTaskReceivesEveryTupleAlongALiveTreeWhoseCreditComesBackOverTheRdmaTransport() {
        assertEquals(0, run.exit(), run.output());
        assertTrue(workerLogs.contains("multicast (whale.multicast.structure): nonblocking, d* live"),
            "the trees are reshaped live over RDMA, not fixed");
        assertTrue(workerLogs.lastCount("relay-frames-sent") > 0, "the broadcast went along the trees");
        assertEquals(0, workerLogs.lastCount("relay-tuples-lost"));
    }
}
