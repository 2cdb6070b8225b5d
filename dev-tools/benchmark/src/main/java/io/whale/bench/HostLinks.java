package io.whale.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.cluster.LocalClusterLayout;
import io.whale.cluster.WorkerPids;
import io.whale.cluster.hosts.CpuGroups;
import io.whale.cluster.hosts.HostNetworkPlan;
import io.whale.cluster.hosts.HostsState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The links of a cluster of emulated hosts ({@code whale local-cluster up --hosts N}): which host runs which worker
 * (read once the workers are up, as {@code local-cluster status --json} reports it) and each host's interface byte counters
 * (host 0's is the bridge, which carries only ZooKeeper's and Nimbus's traffic),
 * read straight from the kernel ({@code ip -n NAMESPACE -j -s link show dev INTERFACE}) at the window's edges,
 * which costs no JVM start in the measured window.
 */
public final class HostLinks {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One emulated host: its network namespace, its address, its link's interface there, the worker pids it runs, and
     * whether it has a CPU control group of its own ({@code local-cluster up --host-cpus}), named as its namespace.
     */
    public record Host(int host, String namespace, String address, String networkInterface, List<Long> workerPids, boolean cpuGroup) {
        /** The interface's byte counters now. */
        LinkBytes bytes() throws IOException, InterruptedException {
            JsonNode stats = JSON.readTree(run(List.of("ip", "-n", namespace, "-j", "-s", "link", "show", "dev",
                networkInterface))).get(0).get("stats64");
            return new LinkBytes(host, stats.get("tx").get("bytes").asLong(), stats.get("rx").get("bytes").asLong());
        }
    }

    /** A host's link counters, or (from {@link #minus}) what went over the link between two readings. */
    public record LinkBytes(int host, long txBytes, long rxBytes) {
        LinkBytes minus(LinkBytes earlier) {
            return new LinkBytes(host, txBytes - earlier.txBytes, rxBytes - earlier.rxBytes);
        }
    }

    /** Every host's counters now, in host order. */
    public static List<LinkBytes> read(List<Host> hosts) throws IOException, InterruptedException {
        List<LinkBytes> all = new ArrayList<>();
        for (Host h : hosts) {
            all.add(h.bytes());
        }
        return all;
    }

    /**
     * Each host's CPU time so far (its control group's), in nanoseconds and host order; empty when the hosts share the
     * machine's cores.
     */
    public static List<Long> cpuNanos(List<Host> hosts) {
        if (hosts.stream().noneMatch(Host::cpuGroup)) {
            return List.of();
        }
        CpuGroups groups = CpuGroups.require("--host-cpus");
        return hosts.stream().map(h -> groups.usedNanos(h.namespace()).orElseThrow(() -> new IllegalStateException(
            "host " + h.host() + "'s CPU control group " + h.namespace() + " is gone"))).toList();
    }

    /** The cores each host used between two {@link #cpuNanos} readings {@code seconds} apart (empty without groups). */
    public static List<Double> coresBetween(List<Long> before, List<Long> after, double seconds) {
        List<Double> cores = new ArrayList<>();
        for (int i = 0; i < Math.min(before.size(), after.size()); i++) {
            cores.add((after.get(i) - before.get(i)) / 1e9 / seconds);
        }
        return cores;
    }

    /** What went over each host's link between two {@link #read}s. */
    public static List<LinkBytes> between(List<LinkBytes> before, List<LinkBytes> after) {
        List<LinkBytes> deltas = new ArrayList<>();
        for (int i = 0; i < after.size(); i++) {
            deltas.add(after.get(i).minus(before.get(i)));
        }
        return deltas;
    }

    private HostLinks() {
    }

    /**
     * The hosts of the cluster in {@code clusterDir} now, from the network plan {@code local-cluster up} stored there and
     * the worker pids each Supervisor recorded, as {@code local-cluster status --json} reports them. Read here rather
     * than asked of that command: it is two JVMs and a call to Nimbus, which took tens of seconds on the loaded machine
     * while a run's topology started, all of them with the topology draining its standing backlog (issue 31).
     */
    public static List<Host> of(Path clusterDir) {
        LocalClusterLayout layout = new LocalClusterLayout(clusterDir);
        HostsState state = HostsState.load(layout.hostsFile());
        HostNetworkPlan plan = state.plan();
        List<Host> hosts = new ArrayList<>();
        for (int h = 0; h <= plan.hosts(); h++) {
            hosts.add(new Host(h, plan.namespace(h), plan.address(h), plan.interfaceOf(h), WorkerPids.onHost(layout, h),
                state.hostCpus().isPresent()));
        }
        return hosts;
    }

    /** The host that runs {@code pid}. */
    static Host running(List<Host> hosts, long pid) {
        return hosts.stream().filter(h -> h.workerPids().contains(pid)).findFirst()
            .orElseThrow(() -> new IllegalStateException("no emulated host runs worker " + pid + ": " + hosts));
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("'" + String.join(" ", command) + "' failed");
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
