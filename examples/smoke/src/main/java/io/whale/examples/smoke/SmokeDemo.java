package io.whale.examples.smoke;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.utils.Utils;

/**
 * {@code whale demo smoke}: brings up the local multi-process cluster, submits the smoke topology with
 * {@code whale jar}, follows the tasks' reports until every task has every tuple, prints the result and
 * brings everything down again (also on Ctrl-C). Exit code 0 only when every task received every tuple
 * and the tasks ran in more than one worker process.
 */
public final class SmokeDemo {
    private final Path whaleBin;
    private final Path clusterDir;
    private final Path smokeJar;
    private final SmokeSettings settings;
    private final Duration timeout;
    private final List<String> overrides;
    private final AtomicBoolean cleanedUp = new AtomicBoolean();

    SmokeDemo(Path whaleBin, Path clusterDir, Path smokeJar, SmokeSettings settings, Duration timeout, List<String> overrides) {
        this.whaleBin = whaleBin;
        this.clusterDir = clusterDir;
        this.smokeJar = smokeJar;
        this.settings = settings;
        this.timeout = timeout;
        this.overrides = overrides;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(System.getProperty("whale.demo.dir", "local-cluster")).toAbsolutePath();
        List<String> topologyArgs = new ArrayList<>(List.of("--report-dir", dir.resolve("smoke-report").toString()));
        topologyArgs.addAll(List.of(args));
        SmokeSettings settings = SmokeSettings.parse(topologyArgs.toArray(String[]::new));
        Path jar = Path.of(SmokeDemo.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        SmokeDemo demo = new SmokeDemo(Path.of(System.getProperty("whale.bin")), dir, jar, settings,
            Duration.ofSeconds(Long.getLong("whale.demo.timeout.secs", 240)), overridesFromCommandLine());
        System.exit(demo.run() ? 0 : 1);
    }

    /** The -c overrides given to {@code whale demo}, handed on to the topology submission. */
    private static List<String> overridesFromCommandLine() {
        List<String> args = new ArrayList<>();
        for (Map.Entry<String, Object> e : Utils.readCommandLineOpts().entrySet()) {
            Object v = e.getValue();
            args.add("-c");
            args.add(e.getKey() + "=" + (v instanceof String s ? s : JSONValue.toJSONString(v)));
        }
        return args;
    }

    boolean run() throws IOException, InterruptedException {
        Thread cleanupOnSignal = new Thread(this::cleanUp, "whale-demo-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanupOnSignal);
        try {
            deleteReports();
            step("starting the local cluster (ZooKeeper, Nimbus, 2 Supervisors) in " + clusterDir);
            whale(List.of("local-cluster", "up", "--supervisors", "2", "--dir", clusterDir.toString()));
            step("submitting the smoke topology: " + String.join(" ", settings.toArgs()));
            List<String> submit = new ArrayList<>(List.of("--config", clusterDir.resolve("conf/storm.yaml").toString()));
            submit.addAll(overrides);
            submit.addAll(List.of("jar", smokeJar.toString(), SmokeTopology.class.getName()));
            submit.addAll(settings.toArgs());
            whale(submit);
            return follow();
        } finally {
            cleanUp();
            Runtime.getRuntime().removeShutdownHook(cleanupOnSignal);
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

    private void cleanUp() {
        if (!cleanedUp.compareAndSet(false, true)) {
            return;
        }
        step("killing " + settings.name() + " and stopping the local cluster");
        try {
            whaleQuietly(List.of("--config", clusterDir.resolve("conf/storm.yaml").toString(), "kill", settings.name(), "-w", "1"));
            whale(List.of("local-cluster", "down", "--dir", clusterDir.toString()));
        } catch (IOException | RuntimeException e) {
            System.err.println("whale demo: clean-up failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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

    private void whale(List<String> args) throws IOException, InterruptedException {
        int exit = start(args).inheritIO().start().waitFor();
        if (exit != 0) {
            throw new IllegalStateException("'whale " + String.join(" ", args) + "' failed with exit code " + exit);
        }
    }

    private void whaleQuietly(List<String> args) throws IOException, InterruptedException {
        start(args).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }

    private ProcessBuilder start(List<String> args) {
        List<String> command = new ArrayList<>(List.of(whaleBin.toString()));
        command.addAll(args);
        return new ProcessBuilder(command);
    }

    private static void step(String what) {
        System.out.println("==> " + what);
    }
}
