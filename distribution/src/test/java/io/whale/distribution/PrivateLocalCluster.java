package io.whale.distribution;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.examples.smoke.AckingTopology;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * {@code whale local-cluster up} (ZooKeeper, Nimbus, Supervisors as separate processes) in a network namespace
 * of its own, where loopback is the only interface; the test then drives it with whale commands run in the same
 * namespace. An anchor process ({@code cat} on a pipe from the test) holds the namespace; {@link #close} brings
 * the cluster down by its pid files and ends the anchor by its handle.
 *
 * <p>With {@link #upHosts} the cluster is one of emulated hosts ({@code up --hosts N --link-mbit R}), which makes its
 * own namespaces: there is no anchor, and whale commands given the cluster's conf enter host 0 by themselves.
 */
final class PrivateLocalCluster implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * The smoke example with its test fixtures (whale-example-smoke-VERSION-fixtures.jar, a test dependency), where the
     * cluster tests' topologies are: the shipped examples/whale-example-smoke.jar has the example alone.
     */
    static final Path FIXTURES_JAR = jarOf(AckingTopology.class);
    /**
     * Nimbus assigns a submitted topology at its next monitor round: every second in these clusters rather than Storm's
     * every 10 s, which each test's submit would otherwise wait out (6–10 s each in CI).
     */
    private static final String ASSIGN_EVERY_SECOND = "nimbus.monitor.freq.secs=1";
    /**
     * The tests' workers live a minute or two at a few hundred tuples a second: C1's code is fast enough there, and
     * without C2 these tests' 39 workers used 397 s of CPU in CI instead of 693 (issue 31). A topology that sets its own
     * {@code topology.worker.childopts} replaces this default.
     */
    private static final String WORKERS_ON_C1 = "topology.worker.childopts=\"-XX:TieredStopAtLevel=1\"";

    private final Optional<Process> anchor;
    private final Path dir;

    private PrivateLocalCluster(Optional<Process> anchor, Path dir) {
        this.anchor = anchor;
        this.dir = dir;
    }

    /**
     * {@code whale [-c OVERRIDE ...] local-cluster up --hosts N [--link-mbit R]} (R 0: unshaped); needs root. The
     * overrides go into the cluster's conf (e.g. shorter Nimbus timeouts for fault tests).
     */
    static PrivateLocalCluster upHosts(Path dir, int hosts, int linkMbit, List<String> overrides) throws IOException, InterruptedException {
        return upHosts(dir, hosts, linkMbit, overrides, List.of());
    }

    /** {@link #upHosts(Path, int, int, List)} with more options of {@code up} (e.g. {@code --host-cpus C}). */
    static PrivateLocalCluster upHosts(Path dir, int hosts, int linkMbit, List<String> overrides, List<String> upOptions)
        throws IOException, InterruptedException {
        WhaleCli.deleteRecursively(dir);
        PrivateLocalCluster cluster = new PrivateLocalCluster(Optional.empty(), dir);
        List<String> up = new ArrayList<>(List.of("-c", ASSIGN_EVERY_SECOND, "-c", WORKERS_ON_C1));
        overrides.forEach(o -> up.addAll(List.of("-c", o)));
        up.addAll(List.of("local-cluster", "up", "--hosts", String.valueOf(hosts), "--dir", dir.toString()));
        up.addAll(upOptions);
        if (linkMbit > 0) {
            up.addAll(List.of("--link-mbit", String.valueOf(linkMbit)));
        }
        return cluster.startedWith(up);
    }

    /**
     * Runs {@code whale UP} (a {@code local-cluster up} command): this cluster once it succeeded; closed if it failed.
     * The daemons run as root ({@code --user root}) unless UP names a user: the tests' topologies write their reports
     * to folders the test makes, as root, beside the cluster's. The default user, {@code nobody}, is run by {@code
     * SmokeClusterIT}, {@code CliRoundTripIT} and {@code EmulatedHostsLifecycleIT}.
     */
    private PrivateLocalCluster startedWith(List<String> up) throws IOException, InterruptedException {
        if (!up.contains("--user")) {
            up.addAll(List.of("--user", "root"));
        }
        try {
            WhaleCli.Result result = whale(Duration.ofMinutes(3), up.toArray(String[]::new));
            System.out.println(result.output());
            assertEquals(0, result.exit(), result.output());
            return this;
        } catch (Throwable t) {
            close();
            throw t;
        }
    }

    /** {@code local-cluster status --json}: per host its address, link, pids and byte counters (see the README). */
    JsonNode status() throws IOException, InterruptedException {
        WhaleCli.Result status = whale(Duration.ofMinutes(1), "local-cluster", "status", "--json", "--dir", dir.toString());
        int start = status.output().indexOf('{');
        assertTrue(start >= 0, "status --json printed no JSON:\n" + status.output());
        return JSON.readTree(status.output().substring(start));
    }

    /** {@code local-cluster fault HOST ARGS...}; fails unless it succeeds, returns what it printed. */
    String fault(int host, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("local-cluster", "fault", String.valueOf(host)));
        command.addAll(List.of(args));
        command.addAll(List.of("--dir", dir.toString()));
        WhaleCli.Result result = whale(Duration.ofMinutes(1), command.toArray(String[]::new));
        System.out.println(result.output());
        assertEquals(0, result.exit(), result.output());
        return result.output();
    }

    static PrivateLocalCluster up(Path dir, int supervisors) throws IOException, InterruptedException {
        return up(dir, supervisors, List.of());
    }

    /** {@code whale [-c OVERRIDE ...] local-cluster up --supervisors N} in a private network namespace. */
    static PrivateLocalCluster up(Path dir, int supervisors, List<String> overrides) throws IOException, InterruptedException {
        WhaleCli.deleteRecursively(dir);
        Process anchor = new ProcessBuilder("unshare", "--net", "bash", "-c", "ip link set lo up && echo ready && exec cat")
            .redirectErrorStream(true).start();
        PrivateLocalCluster cluster = new PrivateLocalCluster(Optional.of(anchor), dir);
        String first = new BufferedReader(new InputStreamReader(anchor.getInputStream(), StandardCharsets.UTF_8)).readLine();
        if (!"ready".equals(first)) {
            cluster.close();
            assertEquals("ready", first, "the private network namespace did not come up");
        }
        List<String> up = new ArrayList<>(List.of("-c", ASSIGN_EVERY_SECOND, "-c", WORKERS_ON_C1));
        overrides.forEach(o -> up.addAll(List.of("-c", o)));
        up.addAll(List.of("local-cluster", "up", "--supervisors", String.valueOf(supervisors), "--dir", dir.toString()));
        return cluster.startedWith(up);
    }

    Path dir() {
        return dir;
    }

    /** Runs {@code whale ARGS} inside the cluster's network namespace. */
    WhaleCli.Result whale(Duration timeout, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        anchor.ifPresent(a -> command.addAll(List.of("nsenter", "--net=/proc/" + a.pid() + "/ns/net")));
        command.add(WhaleCli.BIN.toString());
        command.addAll(List.of(args));
        return WhaleCli.run(timeout, Map.of(), command);
    }

    /**
     * Starts {@code whale ARGS} inside the cluster's network namespace, in the background with {@code env} added, its
     * output to {@code log}: a daemon of one's own beside the cluster's (the caller stops it with the handle).
     */
    Process startWhale(Map<String, String> env, Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        anchor.ifPresent(a -> command.addAll(List.of("nsenter", "--net=/proc/" + a.pid() + "/ns/net")));
        command.add(WhaleCli.BIN.toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        return builder.start();
    }

    /** Runs COMMAND inside the cluster's network namespace (curl, a browser: whatever must reach its daemons). */
    WhaleCli.Result inside(Duration timeout, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>();
        anchor.ifPresent(a -> line.addAll(List.of("nsenter", "--net=/proc/" + a.pid() + "/ns/net")));
        line.addAll(List.of(command));
        return WhaleCli.run(timeout, Map.of(), line);
    }

    private static Path jarOf(Class<?> fixture) {
        try {
            return Path.of(fixture.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the jar of " + fixture, e);
        }
    }

    /** Submits a topology from the smoke example's fixtures jar ({@link #FIXTURES_JAR}) with {@code whale [-c K=V ...] jar}. */
    void submit(List<String> overrides, String mainClass, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("--config", dir.resolve("conf/storm.yaml").toString()));
        for (String override : overrides) {
            command.addAll(List.of("-c", override));
        }
        command.addAll(List.of("jar", FIXTURES_JAR.toString(), mainClass));
        command.addAll(args);
        WhaleCli.Result submitted = whale(Duration.ofMinutes(2), command.toArray(String[]::new));
        System.out.println(submitted.output());
        assertEquals(0, submitted.exit(), submitted.output());
    }

    void kill(String topology) throws IOException, InterruptedException {
        WhaleCli.Result killed = whale(Duration.ofMinutes(1), "--config", dir.resolve("conf/storm.yaml").toString(),
            "kill", topology, "-w", "1");
        assertEquals(0, killed.exit(), killed.output());
    }

    /** Every worker.log of the topology's workers (a restarted worker appends to its slot's log). */
    WorkerLogs workerLogs(String topology) throws IOException {
        return WorkerLogs.under(dir.resolve("logs"), topology + "-");
    }

    /** The names of the topologies running on the cluster, from {@code whale list}'s table. */
    List<String> topologies() throws IOException, InterruptedException {
        WhaleCli.Result list = whale(Duration.ofMinutes(1), "--config", dir.resolve("conf/storm.yaml").toString(), "list");
        assertEquals(0, list.exit(), list.output());
        List<String> lines = list.output().lines().toList();
        int rule = IntStream.range(0, lines.size()).filter(i -> lines.get(i).matches("-{10,}")).findFirst().orElse(-1);
        return rule < 0 ? List.of() : lines.subList(rule + 1, lines.size()).stream().filter(l -> !l.isBlank())
            .map(l -> l.trim().split("\\s+")[0]).toList();
    }

    /** Kills every topology on the cluster and waits until none of its workers is left: what the cluster held before. */
    List<String> killEveryTopology() throws IOException, InterruptedException {
        List<String> left = topologies();
        for (String topology : left) {
            kill(topology);
        }
        awaitNoWorker();
        return left;
    }

    /**
     * Kills the topology, the only one running, and waits until no worker of the cluster is left, so that what runs
     * next on the cluster has its slots and cores to itself.
     */
    void killAndAwaitExit(String topology) throws IOException, InterruptedException {
        kill(topology);
        awaitNoWorker();
    }

    private void awaitNoWorker() {
        await("no worker of the cluster in " + dir + " left").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500))
            .until(() -> EmulatedHosts.processesOf(dir).stream().noneMatch(PrivateLocalCluster::isWorker));
    }

    private static boolean isWorker(long pid) {
        return ProcessHandle.of(pid).flatMap(p -> p.info().commandLine()).orElse("").contains("org.apache.storm.daemon.worker.Worker");
    }

    /** {@code local-cluster down}, which must succeed and leave no process of the cluster behind (daemons, workers). */
    @Override
    public void close() throws IOException, InterruptedException {
        try {
            if (Files.exists(dir.resolve("cluster.properties"))) {
                WhaleCli.Result down = whale(Duration.ofMinutes(2), "local-cluster", "down", "--dir", dir.toString());
                System.out.println(down.output());
                assertEquals(0, down.exit(), down.output());
                assertEquals(List.of(), EmulatedHosts.processesOf(dir), "every daemon and worker of the cluster in " + dir + " stopped");
            }
        } finally {
            if (anchor.isPresent()) {
                anchor.get().destroy();
                anchor.get().waitFor();
            }
        }
    }
}
