package io.whale.cluster;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The folder of one local cluster: {@code conf/} (the cluster's storm.yaml for clients and Nimbus, one
 * file per Supervisor), {@code logs/<daemon>/}, {@code pids/<daemon>.pid}, {@code data/<daemon>/} and
 * {@code cluster.properties}, which remembers the port plan for {@code status} and {@code down}, and with
 * {@code --hosts} {@code hosts.properties} (see {@link io.whale.cluster.hosts.HostsState}).
 */
public final class LocalClusterLayout {
    public static final String ZOOKEEPER = "zookeeper";
    public static final String NIMBUS = "nimbus";
    public static final String UI = "ui";
    /** The cluster conf's key naming host 0's network namespace, which {@code bin/whale} enters for client commands. */
    public static final String NETNS_KEY = "whale.local.cluster.netns";

    private final Path root;

    public LocalClusterLayout(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    public Path clusterConf() {
        return root.resolve("conf/storm.yaml");
    }

    public Path daemonConf(String daemon) {
        return daemon.startsWith("supervisor-") ? root.resolve("conf/" + daemon + ".yaml") : clusterConf();
    }

    /** Every daemon's logs, the workers' among them. */
    public Path logsDir() {
        return root.resolve("logs");
    }

    public Path logDir(String daemon) {
        return logsDir().resolve(daemon);
    }

    public Path pidFile(String daemon) {
        return root.resolve("pids").resolve(daemon + ".pid");
    }

    /** Every daemon's data ({@code storm.local.dir}), and what the demos' topologies write. */
    public Path dataDir() {
        return root.resolve("data");
    }

    public Path dataDir(String daemon) {
        return dataDir().resolve(daemon);
    }

    /** The emulated hosts' names and state ({@code up --hosts} only). */
    public Path hostsFile() {
        return root.resolve("hosts.properties");
    }

    private Path stateFile() {
        return root.resolve("cluster.properties");
    }

    public static String supervisor(int number) {
        return "supervisor-" + number;
    }

    /** Daemon names in start order; the UI where the home that wrote the cluster ships it. */
    public List<String> daemons(PortPlan plan) {
        List<String> names = new ArrayList<>(List.of(ZOOKEEPER, NIMBUS));
        if (withUi()) {
            names.add(UI);
        }
        for (int s = 1; s <= plan.supervisors(); s++) {
            names.add(supervisor(s));
        }
        return names;
    }

    private Properties readState() {
        if (!exists()) {
            throw new LocalClusterException("no local cluster in " + root + " (start one with: whale local-cluster up)");
        }
        Properties state = new Properties();
        try (Reader in = Files.newBufferedReader(stateFile())) {
            state.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + stateFile(), e);
        }
        return state;
    }

    /** Whether this cluster runs whale ui and the workers' Prometheus endpoints (see {@link #write}). */
    boolean withUi() {
        return Boolean.parseBoolean(readState().getProperty("ui", "false"));
    }

    /** Whether {@code home} ships whale ui (lib/) and the workers' Prometheus endpoint (lib-worker/): not a stock home. */
    public static boolean shipsUi(Path home) {
        return hasJar(home.resolve("lib"), "whale-ui-") && hasJar(home.resolve("lib-worker"), "whale-prometheus-");
    }

    private static boolean hasJar(Path dir, String prefix) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().startsWith(prefix) && f.getFileName().toString().endsWith(".jar"));
        } catch (IOException e) {
            return false;
        }
    }

    public boolean exists() {
        return Files.exists(stateFile());
    }

    /**
     * Writes the configuration: the operator's storm.yaml followed by the local settings (a later key wins in Storm's
     * YAML reading), so every byte of the cluster stays on the cluster's addresses, then {@code overrides}
     * ({@code key: value} lines from {@code whale -c}). With {@code ui} (a home that ships it, {@link #shipsUi}) the
     * cluster runs whale ui and every topology's workers serve their metrics to Prometheus.
     */
    public void write(PortPlan plan, Path baseConf, ClusterAddresses addresses, List<String> overrides, boolean ui) {
        try {
            for (String dir : List.of("conf", "logs", "pids", "data")) {
                Files.createDirectories(root.resolve(dir));
            }
            String base = Files.exists(baseConf) ? Files.readString(baseConf) + "\n" : "";
            String address = quoted(addresses.cluster());
            boolean emulated = addresses.namespace().isPresent();
            String cluster = base + "########### Written by `whale local-cluster up`: "
                + (emulated ? "a cluster of emulated hosts; ZooKeeper and Nimbus on host 0, " + addresses.cluster() : "a cluster on 127.0.0.1") + "\n"
                + "storm.zookeeper.servers: [" + address + "]\n"
                + "storm.zookeeper.port: " + plan.zookeeper() + "\n"
                + "nimbus.seeds: [" + address + "]\n"
                + "nimbus.thrift.port: " + plan.nimbus() + "\n"
                + (ui ? "ui.port: " + plan.ui() + "\n"
                    // on 127.0.0.1 the UI (it can kill topologies) and the workers' endpoints listen on loopback only, as
                    // everything else here; an emulated host's namespace is its own network already
                    + (emulated ? "" : "ui.host: " + address + "\n")
                    // every worker serves its metrics to Prometheus (and to the UI's Whale panel) on a port of this range
                    + "topology.metrics.reporters:\n"
                    + "  - class: \"io.whale.metrics.prometheus.PrometheusReporter\"\n"
                    + "    port: \"" + plan.prometheusPorts() + "\"\n"
                    + (emulated ? "" : "    bind.host: " + address + "\n") : "")
                + "storm.local.hostname: " + address + "\n"
                + "storm.local.dir: " + quoted(dataDir(NIMBUS)) + "\n"
                + "storm.metricstore.rocksdb.location: " + quoted(dataDir(NIMBUS).resolve("storm_rocks")) + "\n"
                + "dev.zookeeper.path: " + quoted(dataDir(ZOOKEEPER)) + "\n"
                // the JVM beside each worker that only copies its output into the log, as light as the daemons
                + "topology.worker.logwriter.childopts: \"-Xmx64m " + DaemonProcess.LIGHT_JVM + "\"\n"
                // with whale.transport=rdma: workers of one host talk through UCX shared memory (left alone,
                // UCX moves RMA data over TCP loopback), and the receiving side binds loopback only; emulated hosts
                // reach each other over TCP on the bridge, each binding its own address, written in its Supervisor's
                // conf only (with host 0's here as well, the workers on emulated hosts tried to listen on host 0's)
                + "whale.rdma.ucx.TLS: " + (emulated ? "\"tcp,sm,self\"" : "\"sm,self\"") + "\n"
                + (emulated ? "" : "whale.rdma.bind.host: " + address + "\n")
                + addresses.namespace().map(ns -> "# `whale` commands given this file run in host 0's network namespace\n"
                    + NETNS_KEY + ": " + quoted(ns) + "\n").orElse("")
                + overrides.stream().map(o -> o + "\n").collect(Collectors.joining());
            Files.writeString(clusterConf(), cluster);
            for (int s = 1; s <= plan.supervisors(); s++) {
                String ports = plan.slots(s).stream().map(String::valueOf).collect(Collectors.joining(", "));
                String supervisorAddress = quoted(addresses.supervisor(s));
                Files.writeString(daemonConf(supervisor(s)), cluster
                    + "storm.local.dir: " + quoted(dataDir(supervisor(s))) + "\n"
                    + "supervisor.thrift.port: " + plan.supervisorThrift(s) + "\n"
                    + "supervisor.slots.ports: [" + ports + "]\n"
                    + (emulated ? "storm.local.hostname: " + supervisorAddress + "\nwhale.rdma.bind.host: " + supervisorAddress + "\n" : ""));
            }
            Properties state = new Properties();
            state.setProperty("base.port", String.valueOf(plan.base()));
            state.setProperty("supervisors", String.valueOf(plan.supervisors()));
            state.setProperty("slots", String.valueOf(plan.slotsPerSupervisor()));
            state.setProperty("ui", String.valueOf(ui));
            try (Writer out = Files.newBufferedWriter(stateFile())) {
                state.store(out, "whale local-cluster");
            }
            if (!emulated) {
                Files.deleteIfExists(hostsFile());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the local cluster under " + root, e);
        }
    }

    public PortPlan readPlan() {
        Properties state = readState();
        return new PortPlan(Integer.parseInt(state.getProperty("base.port")),
            Integer.parseInt(state.getProperty("supervisors")), Integer.parseInt(state.getProperty("slots")));
    }

    private static String quoted(Path path) {
        return quoted(path.toString());
    }

    private static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
