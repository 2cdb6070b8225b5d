package io.whale.examples.smoke;

import io.whale.examples.demo.DemoSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code whale demo smoke}: brings up the local multi-process cluster, submits the smoke topology with
 * {@code whale jar}, follows the tasks' reports until every task has every tuple, prints the result and
 * brings everything down again (also on Ctrl-C). Exit code 0 only when every task received every tuple
 * and the tasks ran in more than one worker process.
 */
public final class SmokeDemo {
    private final DemoSession session;
    private final Path clusterDir;
    private final Path smokeJar;
    private final SmokeSettings settings;
    private final Duration timeout;
    private final List<String> overrides;

    SmokeDemo(DemoSession session, Path clusterDir, Path smokeJar, SmokeSettings settings, Duration timeout, List<String> overrides) {
        this.session = session;
        this.clusterDir = clusterDir;
        this.smokeJar = smokeJar;
        this.settings = settings;
        this.timeout = timeout;
        this.overrides = overrides;
    }

    public static void main(String[] args) throws Exception {
        Path dir = DemoSession.demoDir();
        // under data/, which the daemons' user owns when they run as another one (local-cluster up --user)
        List<String> topologyArgs = new ArrayList<>(List.of("--report-dir", dir.resolve("data/smoke-report").toString()));
        topologyArgs.addAll(List.of(args));
        SmokeSettings settings = SmokeSettings.parse(topologyArgs.toArray(String[]::new));
        Path jar = Path.of(SmokeDemo.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        SmokeDemo demo = new SmokeDemo(DemoSession.fromWhaleCommand(), dir, jar, settings,
            Duration.ofSeconds(Long.getLong("whale.demo.timeout.secs", 240)), DemoSession.overridesFromCommandLine());
        System.exit(demo.run() ? 0 : 1);
    }

    boolean run() throws IOException, InterruptedException {
        try (session) {
            deleteReports();
            List<String> clusterConf = List.of("--config", clusterDir.resolve("conf/storm.yaml").toString());
            session.onClose("killing " + settings.name() + " and stopping the local cluster", () -> {
                List<String> kill = new ArrayList<>(clusterConf);
                kill.addAll(List.of("kill", settings.name(), "-w", "1"));
                session.whaleQuietly(kill);
                session.whale(List.of("local-cluster", "down", "--dir", clusterDir.toString()));
            });
            DemoSession.step("starting the local cluster (ZooKeeper, Nimbus, 2 Supervisors) in " + clusterDir);
            session.whale(List.of("local-cluster", "up", "--supervisors", "2", "--dir", clusterDir.toString()));
            DemoSession.stepUi();
            DemoSession.step("submitting the smoke topology: " + String.join(" ", settings.toArgs()));
            List<String> submit = new ArrayList<>(clusterConf);
            submit.addAll(overrides);
            submit.addAll(List.of("jar", smokeJar.toString(), SmokeTopology.class.getName()));
            submit.addAll(settings.toArgs());
            session.whale(submit);
            return follow();
        }
    }

    private boolean follow() throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        SmokeReports reports = SmokeReports.read(Path.of(settings.reportDir()));
        while (!reports.allComplete(settings.parallelism()) && System.nanoTime() < deadline) {
            TimeUnit.SECONDS.sleep(2);
            reports = SmokeReports.read(Path.of(settings.reportDir()));
            long distinct = reports.tasks().stream().mapToLong(SmokeReports.Task::distinct).sum();
            System.out.printf("[%3ds] %d/%d tasks reporting, %d/%d tuple deliveries%n",
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start), reports.tasks().size(), settings.parallelism(),
                distinct, (long) settings.parallelism() * settings.tuples());
        }
        System.out.print(reports.describe());
        boolean complete = reports.allComplete(settings.parallelism());
        boolean spread = reports.workerPids().size() > 1;
        System.out.printf("RESULT: %s — %d tasks, every task received every tuple: %s; worker processes: %d %s; peers: %s%n",
            complete && spread ? "PASS" : "FAIL", reports.tasks().size(), complete ? "yes" : "no", reports.workerPids().size(),
            reports.workerPids(), reports.peers());
        return complete && spread;
    }

    private void deleteReports() throws IOException {
        Path dir = Path.of(settings.reportDir());
        if (Files.isDirectory(dir)) {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
        }
    }
}
