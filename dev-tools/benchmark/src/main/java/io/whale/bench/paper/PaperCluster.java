package io.whale.bench.paper;

import io.whale.bench.HostLinks;
import io.whale.cluster.LocalClusterLayout;
import io.whale.cluster.hosts.CpuGroups;
import io.whale.cluster.hosts.HostNetwork;
import io.whale.cluster.hosts.HostsState;
import io.whale.examples.demo.DemoSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.apache.commons.io.FileUtils;

/**
 * One cluster of emulated hosts the paper benchmark runs on ({@code whale local-cluster up --hosts N}, from Whale's
 * home or from the stock Storm home) and its own Kafka broker on host 0, beside ZooKeeper and Nimbus, where every
 * host's workers reach it over the bridge (its traffic to the spouts' hosts crosses their shaped links like any
 * other). Kafka and the data generators are Whale's tools on both clusters: they are not the system under test. One
 * cluster is up at a time ({@link PaperBenchmark}).
 *
 * <p>A topology's jar (the example's, with Kafka's client in it: 27 MB) goes from Nimbus to every Supervisor when it
 * is submitted, which takes minutes over a link shaped to 1 Mbit/s; {@link #shapeLinks} lets a run open the links for
 * its start and shape them again before anything is measured; {@link #liftHostCpus} does the same with the hosts' CPU
 * quotas.
 */
final class PaperCluster {
    static final int KAFKA_PORT = 16092;

    private final DemoSession session;
    private final Path toolsBin;
    private final Path dir;
    private final int hosts;
    private Path kafkaDir;
    private HostLinks.Host host0;

    /**
     * @param session  runs this cluster's {@code whale} (Whale's or the stock home's)
     * @param toolsBin Whale's {@code bin/whale}, for Kafka and the generators
     */
    PaperCluster(DemoSession session, Path toolsBin, Path dir, int hosts) {
        this.session = session;
        this.toolsBin = toolsBin;
        this.dir = dir;
        this.hosts = hosts;
    }

    /** Brings the cluster and its broker up, afresh; the session's close brings them down, newest first. */
    void up(List<String> layout, List<String> extra, String what) throws IOException, InterruptedException {
        clearEarlier();
        session.onClose("stopping the " + what, () -> session.whale(List.of("local-cluster", "down", "--dir", dir.toString())));
        DemoSession.step("starting the " + what + " (" + String.join(" ", layout) + ") in " + dir);
        List<String> up = new ArrayList<>(List.of("local-cluster", "up"));
        up.addAll(layout);
        up.addAll(List.of("--dir", dir.toString()));
        up.addAll(extra);
        if ("root".equals(System.getProperty("user.name"))) {
            up.addAll(List.of("--user", "root")); // the runs' tasks report to folders the harness makes, as root
        }
        session.whale(up);
        host0 = HostLinks.of(dir).stream().filter(h -> h.host() == 0).findFirst()
            .orElseThrow(() -> new IllegalStateException("no host 0 in the emulated hosts' state under " + dir));
        kafkaDir = dir.resolve("kafka");
        session.onClose("stopping Kafka of the " + what, () -> run(inHost0(List.of(toolsBin.toString(), "kafka", "stop", "--dir",
            kafkaDir.toString()))));
        DemoSession.step("starting Kafka on host 0 of the " + what + ", " + bootstrap());
        run(inHost0(List.of(toolsBin.toString(), "kafka", "start", "--dir", kafkaDir.toString(), "--host", host0.address(),
            "--port", Integer.toString(KAFKA_PORT))));
    }

    /**
     * Removes what an earlier run left in the cluster's folder, stopping what of it still runs: a sitting cut off
     * half-way leaves its topology in ZooKeeper, which Nimbus would start again beside the next measured run, and every
     * earlier run's topic in the broker. The records (DIR/data) are outside; the drivers' topic is loaded again each run.
     */
    private void clearEarlier() throws IOException, InterruptedException {
        if (!Files.exists(dir)) {
            return;
        }
        DemoSession.step("clearing what an earlier run left in " + dir);
        if (Files.exists(dir.resolve("kafka"))) {
            run(List.of(toolsBin.toString(), "kafka", "stop", "--dir", dir.resolve("kafka").toString()));
        }
        if (new LocalClusterLayout(dir).exists()) {
            session.whale(List.of("local-cluster", "down", "--dir", dir.toString()));
        }
        FileUtils.deleteDirectory(dir.toFile());
    }

    String bootstrap() {
        return host0.address() + ":" + KAFKA_PORT;
    }

    Path dir() {
        return dir;
    }

    DemoSession session() {
        return session;
    }

    Path conf() {
        return dir.resolve("conf/storm.yaml");
    }

    /**
     * Shapes every Supervisor's link to {@code mbit} each way, as {@code whale local-cluster fault HOST slow MBIT} does
     * for one (the same {@code tc} commands, and the cluster's state records the rates), without a JVM per host.
     */
    void shapeLinks(int mbit) {
        Path file = new LocalClusterLayout(dir).hostsFile();
        HostsState state = HostsState.load(file);
        List<List<String>> commands = new ArrayList<>();
        for (int h = 1; h <= hosts; h++) {
            commands.addAll(state.plan().shapeCommands(h, mbit));
            state = state.withRate(h, mbit);
        }
        HostNetwork.run(commands);
        state.store(file);
    }

    /**
     * Lifts the hosts' CPU quotas ({@code lifted}) or gives them back ({@code --host-cpus}); a cluster without quotas
     * is left alone. Like the links, a run lifts them for its start, which is no part of what it measures: a worker
     * JVM's start on a quarter core took minutes in CI, beside the test suites.
     */
    void liftHostCpus(boolean lifted) {
        HostsState state = HostsState.load(new LocalClusterLayout(dir).hostsFile());
        if (state.hostCpus().isEmpty()) {
            return;
        }
        CpuGroups groups = CpuGroups.require("--host-cpus");
        OptionalDouble cpus = lifted ? OptionalDouble.empty() : state.hostCpus();
        state.plan().namespaces().forEach(ns -> groups.limit(ns, cpus));
    }

    /** {@code command} run in host 0's network namespace. */
    List<String> inHost0(List<String> command) {
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", host0.namespace()));
        all.addAll(command);
        return all;
    }

    /** Runs {@code whale gen …} of Whale's tools into this cluster's broker. */
    void generateIntoKafka(List<String> genArgs) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(toolsBin.toString()));
        command.addAll(genArgs);
        command.addAll(List.of("--bootstrap", bootstrap()));
        run(inHost0(command));
    }

    /** Runs a command with this terminal; fails unless it exits with 0 within ten minutes. */
    static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).inheritIO().start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("'" + String.join(" ", command) + "' did not finish in 10 minutes");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("'" + String.join(" ", command) + "' failed with exit code " + p.exitValue());
        }
    }
}
