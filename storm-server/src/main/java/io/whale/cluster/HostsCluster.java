package io.whale.cluster;

import io.whale.cluster.hosts.CpuGroups;
import io.whale.cluster.hosts.HostNetwork;
import io.whale.cluster.hosts.HostNetworkPlan;
import io.whale.cluster.hosts.HostsState;
import io.whale.cluster.hosts.LinkCounters;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The emulated hosts of a local cluster started with {@code --hosts}: host 0 runs ZooKeeper and Nimbus, host i
 * Supervisor i, each in its own network namespace (see {@link HostNetworkPlan}). Knows which namespace each daemon
 * runs in, reports each host's link, injects faults and removes every namespace by the names recorded at {@code up}.
 */
final class HostsCluster {
    private final LocalClusterLayout layout;
    private final PrintStream out;

    HostsCluster(LocalClusterLayout layout, PrintStream out) {
        this.layout = layout;
        this.out = out;
    }

    /** The cluster's emulated hosts, if it was started with {@code --hosts}. */
    static Optional<HostsCluster> of(LocalClusterLayout layout, PrintStream out) {
        return Files.exists(layout.hostsFile()) ? Optional.of(new HostsCluster(layout, out)) : Optional.empty();
    }

    HostsState state() {
        return HostsState.load(layout.hostsFile());
    }

    HostNetworkPlan plan() {
        return state().plan();
    }

    static ClusterAddresses addresses(HostNetworkPlan plan) {
        return new ClusterAddresses(plan.address(0), IntStream.rangeClosed(1, plan.hosts()).mapToObj(plan::address).toList(),
            Optional.of(plan.namespace(0)));
    }

    /** The host a daemon runs on: 0 for ZooKeeper and Nimbus, i for supervisor-i. */
    static int hostOf(String daemon) {
        return daemon.startsWith("supervisor-") ? Integer.parseInt(daemon.substring("supervisor-".length())) : 0;
    }

    /** How to start a daemon on its host: in its namespace and, with {@code --host-cpus}, its CPU control group. */
    List<String> launcher(String daemon) {
        return state().onHost(hostOf(daemon), List.of());
    }

    /** With {@code --host-cpus}: a CPU control group per host, named as its namespace, each with that many cores. */
    void createCpuGroups() {
        HostsState state = state();
        if (state.hostCpus().isEmpty()) {
            return;
        }
        CpuGroups groups = CpuGroups.require("--host-cpus");
        state.plan().namespaces().forEach(ns -> groups.create(ns, state.hostCpus().getAsDouble()));
        out.printf("each host held to %s core(s) of CPU time by a control group of its own, named as its namespace%n",
            cores(state.hostCpus().getAsDouble()));
    }

    /** Removes the hosts' CPU control groups, stopping any process still in one. */
    void removeCpuGroups() {
        HostsState state = state();
        if (state.hostCpus().isEmpty()) {
            return;
        }
        CpuGroups groups = CpuGroups.require("--host-cpus");
        for (String ns : state.plan().namespaces()) {
            stopAllButThisCommand(groups.pids(ns));
            if (groups.remove(ns)) {
                out.printf("CPU control group %s removed%n", ns);
            }
        }
    }

    /** The namespaces of this cluster that exist now. */
    List<String> existingNamespaces() {
        return plan().namespaces().stream().filter(HostNetwork::exists).toList();
    }

    void printHosts() {
        for (Map<String, Object> host : report()) {
            String bytes = host.get("rxBytes") == null ? "no namespace"
                : "received " + host.get("rxBytes") + " B, sent " + host.get("txBytes") + " B";
            String cpu = host.get("cpus") == null ? "" : String.format("  %s core(s), %.1f s of CPU used", cores((double) host.get("cpus")),
                host.get("cpuSeconds") == null ? Double.NaN : (double) host.get("cpuSeconds"));
            out.printf("host %d  %-15s %s  %s  %s  %s%s%n", host.get("host"), host.get("address"), host.get("namespace"),
                describeLink(host), describeProcesses(host), bytes, cpu);
        }
    }

    /** 0.25 as "0.25", 1.0 as "1". */
    private static String cores(double cpus) {
        return BigDecimal.valueOf(cpus).stripTrailingZeros().toPlainString();
    }

    @SuppressWarnings("unchecked")
    private static String describeProcesses(Map<String, Object> host) {
        StringBuilder b = new StringBuilder();
        ((Map<String, Long>) host.get("daemonPids")).forEach((name, pid) ->
            b.append(name).append(pid == null ? " NOT RUNNING" : " pid " + pid).append(", "));
        return b.append("workers ").append(host.get("workerPids")).toString();
    }

    private static String describeLink(Map<String, Object> host) {
        if ((int) host.get("host") == 0) {
            return "bridge " + HostNetworkPlan.BRIDGE;
        }
        String rate = host.get("linkMbit") == null ? "unshaped" : host.get("linkMbit") + " Mbit/s";
        return "link " + rate + (Boolean.TRUE.equals(host.get("partitioned")) ? ", PARTITIONED" : "");
    }

    /**
     * Per host: number, namespace, address, interface, link rate (null: unshaped), partitioned, its daemons' pids,
     * its workers' pids, the bytes its interface received and sent since {@code up} created it, and with
     * {@code --host-cpus} its cores and the CPU time its processes used (null without).
     */
    List<Map<String, Object>> report() {
        HostsState state = state();
        HostNetworkPlan plan = state.plan();
        Optional<CpuGroups> groups = state.hostCpus().isPresent() ? Optional.of(CpuGroups.require("--host-cpus")) : Optional.empty();
        List<Map<String, Object>> hosts = new ArrayList<>();
        for (int host = 0; host <= plan.hosts(); host++) {
            Map<String, Object> h = new LinkedHashMap<>();
            h.put("host", host);
            h.put("namespace", plan.namespace(host));
            h.put("address", plan.address(host));
            h.put("interface", plan.interfaceOf(host));
            OptionalInt rate = state.rate(host);
            h.put("linkMbit", rate.isPresent() ? rate.getAsInt() : null);
            h.put("partitioned", state.partitioned().contains(host));
            Map<String, Long> daemons = new LinkedHashMap<>();
            int number = host;
            List<String> names = layout.daemons(layout.readPlan()).stream().filter(n -> hostOf(n) == number).toList();
            names.forEach(n -> daemons.put(n, new DaemonProcess(n, layout).pid().orElse(null)));
            h.put("daemonPids", daemons);
            h.put("workerPids", WorkerPids.onHost(layout, host));
            Optional<LinkCounters> counters = HostNetwork.counters(plan.namespace(host), plan.interfaceOf(host));
            h.put("rxBytes", counters.map(LinkCounters::rxBytes).orElse(null));
            h.put("txBytes", counters.map(LinkCounters::txBytes).orElse(null));
            h.put("cpus", state.hostCpus().isPresent() ? state.hostCpus().getAsDouble() : null);
            OptionalLong used = groups.map(g -> g.usedNanos(plan.namespace(number))).orElse(OptionalLong.empty());
            h.put("cpuSeconds", used.isPresent() ? used.getAsLong() / 1e9 : null);
            hosts.add(h);
        }
        return hosts;
    }

    /**
     * Ends every process still in one of the cluster's namespaces (a worker no pid file named, a command someone
     * ran there) and removes the namespaces, host 0 last; a veth end, the bridge and the qdiscs go with their
     * namespace. Fails naming a namespace that could not be removed.
     */
    void removeNetwork() {
        List<String> namespaces = new ArrayList<>(plan().namespaces());
        Collections.reverse(namespaces);
        for (String ns : namespaces) {
            if (!HostNetwork.exists(ns)) {
                out.printf("namespace %s was already removed%n", ns);
                continue;
            }
            List<ProcessHandle> left = stopAllButThisCommand(HostNetwork.pidsIn(ns));
            HostNetwork.delete(ns);
            out.printf("namespace %s removed%s%n", ns, left.isEmpty() ? "" : " (after stopping " + left.size() + " process(es) left in it: "
                + left.stream().map(ProcessHandle::pid).toList() + ")");
        }
        List<String> remaining = existingNamespaces();
        if (!remaining.isEmpty()) {
            throw new LocalClusterException("could not remove the network namespaces " + remaining + "; see: ip netns list");
        }
    }

    /** Stops the live processes of {@code pids} but this command and its ancestors (it may run in a host itself); returns them. */
    private static List<ProcessHandle> stopAllButThisCommand(List<Long> pids) {
        Set<Long> spare = selfAndAncestors();
        List<ProcessHandle> others = pids.stream().filter(p -> !spare.contains(p)).map(ProcessHandle::of).flatMap(Optional::stream).toList();
        DaemonProcess.stopAll(others);
        return others;
    }

    private static Set<Long> selfAndAncestors() {
        Set<Long> pids = new HashSet<>();
        Optional<ProcessHandle> p = Optional.of(ProcessHandle.current());
        while (p.isPresent()) {
            pids.add(p.get().pid());
            p = p.get().parent();
        }
        return pids;
    }

    /** {@code fault HOST partition|heal|kill|slow MBIT}: prints what it did. */
    void fault(int host, String kind, OptionalInt mbit) {
        HostsState state = state();
        HostNetworkPlan plan = state.plan();
        plan.checkSupervisorHost(host);
        String ns = plan.namespace(host);
        if (!HostNetwork.exists(ns)) {
            throw new LocalClusterException("host " + host + "'s namespace " + ns + " does not exist: is the cluster up? (whale local-cluster status)");
        }
        String who = "host " + host + " (" + plan.address(host) + ")";
        String port = HostNetworkPlan.bridgePort(host);
        switch (kind) {
            case "partition" -> {
                HostNetwork.run(List.of(plan.partitionCommand(host)));
                state.withPartitioned(host, true).store(layout.hostsFile());
                out.printf("%s: partitioned: bridge port %s is down, so its link carries nothing until: whale local-cluster fault %d heal%n",
                    who, port, host);
            }
            case "heal" -> {
                HostNetwork.run(List.of(plan.healCommand(host)));
                state.withPartitioned(host, false).store(layout.hostsFile());
                out.printf("%s: healed: bridge port %s is up again%n", who, port);
            }
            case "slow" -> {
                int rate = HostNetworkPlan.checkRate(mbit.orElseThrow(() -> new IllegalArgumentException("fault HOST slow needs a rate in Mbit/s")));
                HostNetwork.run(plan.shapeCommands(host, rate));
                state.withRate(host, rate).store(layout.hostsFile());
                out.printf("%s: link shaped to %d Mbit/s in both directions (tc tbf on %s and on bridge port %s)%n",
                    who, rate, HostNetworkPlan.LINK, port);
            }
            case "kill" -> kill(host, ns, who);
            default -> throw new IllegalArgumentException("unknown fault '" + kind + "': partition, heal, kill or slow MBIT");
        }
    }

    /** SIGKILL for the host's Supervisor and everything else in its namespace (its workers), as a host that dies. */
    private void kill(int host, String ns, String who) {
        String supervisor = LocalClusterLayout.supervisor(host);
        Optional<ProcessHandle> daemon = new DaemonProcess(supervisor, layout).process();
        Set<Long> spare = selfAndAncestors();
        List<ProcessHandle> victims = Stream.concat(daemon.stream().flatMap(p -> Stream.concat(Stream.of(p), p.descendants())),
                HostNetwork.pidsIn(ns).stream().map(ProcessHandle::of).flatMap(Optional::stream))
            .filter(p -> !spare.contains(p.pid()))
            .distinct().toList();
        victims.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle p : victims) {
            p.onExit().completeOnTimeout(p, 10, TimeUnit.SECONDS).join();
        }
        List<Long> others = victims.stream().map(ProcessHandle::pid).filter(pid -> daemon.map(d -> d.pid() != pid).orElse(true)).sorted().toList();
        out.printf("%s: killed with SIGKILL: %s, and %d other process(es) in its namespace %s%n", who,
            daemon.map(d -> supervisor + " (pid " + d.pid() + ")").orElse(supervisor + " (was not running)"), others.size(), others);
    }
}
