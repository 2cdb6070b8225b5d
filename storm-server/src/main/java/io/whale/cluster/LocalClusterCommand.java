package io.whale.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.cluster.hosts.CpuGroups;
import io.whale.cluster.hosts.HostNetwork;
import io.whale.cluster.hosts.HostNetworkPlan;
import io.whale.cluster.hosts.HostsState;
import io.whale.cluster.hosts.Ipv4Cidr;
import io.whale.cluster.hosts.SubnetChoice;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.utils.Utils;

/**
 * {@code whale local-cluster up|status|down|fault}: a real ZooKeeper, Nimbus and N Supervisors as separate
 * processes, with logs, pid files and state under one folder; on 127.0.0.1, or with {@code --hosts} each
 * Supervisor on an emulated host of its own (see {@link HostsCluster}).
 */
public final class LocalClusterCommand {
    private static final String USAGE = String.join("\n",
        "usage: whale local-cluster up [--supervisors N | --hosts N [--link-mbit R] [--host-cpus C] [--subnet CIDR]] [--slots K] [--dir DIR]"
            + " [--base-port PORT] [--timeout SECS] [--user NAME]",
        "       whale local-cluster status [--json] [--dir DIR]",
        "       whale local-cluster down [--dir DIR]",
        "       whale local-cluster fault HOST partition|heal|kill|slow MBIT [--dir DIR]");
    /** Internal: {@code up --hosts} starts the daemons with this action, run inside host 0's namespace. */
    private static final String START_DAEMONS = "start-daemons";

    private final LocalClusterLayout layout;
    private final PrintStream out;

    public LocalClusterCommand(LocalClusterLayout layout, PrintStream out) {
        this.layout = layout;
        this.out = out;
    }

    public static void main(String[] args) {
        try {
            Options options = Options.parse(args);
            LocalClusterLayout layout = new LocalClusterLayout(options.dir);
            LocalClusterCommand command = new LocalClusterCommand(layout, System.out);
            enterHostZeroIfNeeded(options.action, layout, args);
            PortPlan ports = new PortPlan(options.basePort, options.hosts > 0 ? options.hosts : options.supervisors, options.slots);
            switch (options.action) {
                case "up" -> {
                    Optional<DaemonUser> user = daemonUser(options);
                    if (options.hosts > 0) {
                        command.upHosts(ports, options.hosts, options.linkMbit, options.hostCpus, options.subnet, whaleHome(),
                            whaleBin(), options.timeout, overridesFromCommandLine(), user);
                    } else {
                        command.up(ports, whaleHome(), whaleBin(), options.timeout, overridesFromCommandLine(), user);
                    }
                }
                case START_DAEMONS -> command.startHostDaemons(whaleHome(), whaleBin(), options.timeout, daemonUser(options));
                case "status" -> System.exit(command.status(options.json) ? 0 : 3);
                case "down" -> command.down();
                case "fault" -> command.fault(options.faultHost, options.fault, options.faultMbit);
                default -> throw new IllegalArgumentException("unknown action '" + options.action + "'\n" + USAGE);
            }
        } catch (IllegalArgumentException | LocalClusterException e) {
            System.err.println("whale local-cluster: " + e.getMessage());
            System.exit(1);
        }
    }

    private static Optional<DaemonUser> daemonUser(Options options) {
        return DaemonUser.choose(options.user, DaemonUser.runningAsRoot(), System.getenv(), DaemonUser::lookup);
    }

    /**
     * Nimbus of a cluster of emulated hosts is only reachable inside host 0's namespace: the commands that ask it
     * ({@code status}, the daemons' start) run themselves again there, through {@code ip netns exec}.
     */
    private static void enterHostZeroIfNeeded(String action, LocalClusterLayout layout, String[] args) {
        if (!List.of("status", START_DAEMONS).contains(action) || !Files.exists(layout.hostsFile())) {
            return;
        }
        String hostZero = HostsState.load(layout.hostsFile()).plan().namespace(0);
        if (HostNetwork.isCurrent(hostZero)) {
            return;
        }
        if (!HostNetwork.exists(hostZero)) {
            if (action.equals("status")) {
                return; // the cluster is down: status says so from here, without asking Nimbus
            }
            throw new LocalClusterException("the cluster in " + layout.root() + " is down: its host 0 namespace " + hostZero
                + " does not exist (start it with: whale local-cluster up --hosts N)");
        }
        HostNetwork.requireRoot("a cluster of emulated hosts");
        List<String> again = new ArrayList<>(List.of(whaleBin().toString(), "local-cluster"));
        again.addAll(List.of(args));
        System.exit(HostNetwork.runInside(hostZero, again));
    }

    /** Starts every daemon on 127.0.0.1, then waits until Nimbus answers and every Supervisor has registered. */
    public void up(PortPlan plan, Path whaleHome, Path whaleBin, Duration timeout, List<String> overrides, Optional<DaemonUser> user) {
        refuseUnsafeFolder();
        refuseIfRunning();
        plan.checkFree();
        ClusterAddresses addresses = ClusterAddresses.loopback(plan.supervisors());
        layout.write(plan, whaleHome.resolve("conf/storm.yaml"), addresses, overrides, LocalClusterLayout.shipsUi(whaleHome));
        startDaemons(plan, addresses, daemon -> List.of(), whaleHome, whaleBin, timeout, user);
    }

    /** As root: a cluster folder another user could write is refused before anything is written ({@link ClusterFolderCheck}). */
    private void refuseUnsafeFolder() {
        if (!DaemonUser.runningAsRoot()) {
            return;
        }
        String sudoUid = System.getenv("SUDO_UID");
        OptionalInt sudo = sudoUid == null || !sudoUid.matches("\\d+") ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(sudoUid));
        ClusterFolderCheck.refusal(layout.root(), sudo).ifPresent(why -> {
            throw new IllegalArgumentException("--dir " + layout.root() + ": " + why);
        });
    }

    /**
     * {@code up --hosts N}: records the plan, builds the network (namespaces, bridge, links, shaping) and, with
     * {@code hostCpus}, a CPU control group per host, then starts the daemons from inside host 0, each on its host.
     * Whatever fails, everything it started or created is removed again.
     */
    public void upHosts(PortPlan ports, int hosts, OptionalInt linkMbit, OptionalDouble hostCpus, Optional<Ipv4Cidr> subnet,
                        Path whaleHome, Path whaleBin, Duration timeout, List<String> overrides, Optional<DaemonUser> user) {
        HostNetwork.requireRoot("local-cluster up --hosts");
        refuseUnsafeFolder();
        if (hostCpus.isPresent()) {
            CpuGroups.require("--host-cpus");
        }
        refuseIfRunning();
        List<Ipv4Cidr> inUse = HostNetwork.networksInUse();
        Ipv4Cidr chosen = subnet.orElseGet(() -> SubnetChoice.firstFree(inUse));
        List<Ipv4Cidr> conflict = SubnetChoice.conflict(chosen, inUse);
        if (!conflict.isEmpty()) {
            throw new IllegalArgumentException("--subnet " + chosen + " overlaps " + conflict + ", in use on this machine; choose another private /24");
        }
        HostNetworkPlan plan = new HostNetworkPlan(newClusterId(), chosen, hosts, linkMbit);
        layout.write(ports, whaleHome.resolve("conf/storm.yaml"), HostsCluster.addresses(plan), overrides,
            LocalClusterLayout.shipsUi(whaleHome));
        HostsState.planned(plan, hostCpus).store(layout.hostsFile());
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            HostNetwork.run(plan.setupCommands());
            out.printf("emulated hosts on %s: host 0 (ZooKeeper, Nimbus) and hosts 1..%d (one Supervisor each), links %s%n",
                plan.subnet(), hosts, linkMbit.isPresent() ? "shaped to " + linkMbit.getAsInt() + " Mbit/s each way" : "unshaped");
            new HostsCluster(layout, out).createCpuGroups();
            long left = Math.max(1, Duration.ofNanos(deadline - System.nanoTime()).toSeconds());
            List<String> startDaemons = new ArrayList<>(List.of(whaleBin.toString(), "local-cluster", START_DAEMONS,
                "--dir", layout.root().toString(), "--timeout", String.valueOf(left)));
            startDaemons.addAll(List.of("--user", user.map(DaemonUser::name).orElse("root"))); // the choice made here, root's too
            int exit = HostNetwork.runInside(plan.namespace(0), startDaemons);
            if (exit != 0) {
                throw new LocalClusterException("the cluster's daemons did not come up (see above)");
            }
            new HostsCluster(layout, out).printHosts();
        } catch (RuntimeException e) {
            out.println("up failed: stopping and removing everything it started and created");
            down();
            throw e;
        }
    }

    /** The second half of {@code up --hosts}, inside host 0: each daemon started in its host's namespace. */
    void startHostDaemons(Path whaleHome, Path whaleBin, Duration timeout, Optional<DaemonUser> user) {
        HostsCluster hosts = HostsCluster.of(layout, out)
            .orElseThrow(() -> new LocalClusterException("no cluster of emulated hosts in " + layout.root()));
        startDaemons(layout.readPlan(), HostsCluster.addresses(hosts.plan()), hosts::launcher, whaleHome, whaleBin, timeout, user);
    }

    private void startDaemons(PortPlan plan, ClusterAddresses addresses, Function<String, List<String>> launcher, Path whaleHome,
                              Path whaleBin, Duration timeout, Optional<DaemonUser> user) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<DaemonProcess> started = new ArrayList<>();
        Function<String, List<String>> asUser = user.isEmpty() ? launcher : asUser(plan, launcher, whaleBin, user.get());
        if (user.isEmpty() && DaemonUser.runningAsRoot()) {
            out.println("daemons and workers run as root, as --user root asked, and so does every topology's code");
        }
        try {
            for (String name : layout.daemons(plan)) {
                DaemonProcess daemon = new DaemonProcess(name, layout);
                long pid = daemon.start(asUser.apply(name), whaleBin, whaleHome);
                started.add(daemon);
                out.printf("started %-13s pid %d%n", name, pid);
                if (name.equals(LocalClusterLayout.ZOOKEEPER)) {
                    awaitZookeeper(addresses.cluster(), plan, started, deadline);
                }
            }
            ClusterSummary summary = awaitRegistered(addresses.cluster(), plan, started, deadline);
            out.printf("local cluster up in %s: ZooKeeper %s:%d, Nimbus %s:%d, %d supervisor(s), %d worker slot(s)%n",
                layout.root(), addresses.cluster(), plan.zookeeper(), addresses.cluster(), plan.nimbus(), summary.get_supervisors_size(),
                summary.get_supervisors().stream().mapToInt(SupervisorSummary::get_num_workers).sum());
            if (layout.withUi()) {
                out.printf("UI: http://%s:%d/ (whale ui)%n", addresses.cluster(), plan.ui());
            }
            out.printf("submit with: whale --config %s jar <topology.jar> <main class> ...%n", layout.clusterConf());
        } catch (RuntimeException e) {
            started.forEach(DaemonProcess::stop);
            throw e;
        }
    }

    /**
     * The daemons started as {@code user}: it gets the folders they write (their logs, their data, where the workers' logs
     * and what topologies write go), once it is known to be able to run Whale; the rest of the folder stays root's.
     */
    private Function<String, List<String>> asUser(PortPlan plan, Function<String, List<String>> launcher, Path whaleBin, DaemonUser user) {
        user.requireCanRun(whaleBin);
        try {
            for (String name : layout.daemons(plan)) {
                Files.createDirectories(layout.logDir(name));
                Files.createDirectories(layout.dataDir(name));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        user.own(layout.logsDir());
        user.own(layout.dataDir());
        user.requireCanWrite(layout.logsDir());
        out.printf("daemons and workers run as %s%n", user);
        return name -> {
            List<String> command = new ArrayList<>(launcher.apply(name));
            command.addAll(user.launcher());
            return command;
        };
    }

    private void refuseIfRunning() {
        if (layout.exists() && anyAlive(layout.readPlan())) {
            throw new LocalClusterException("a local cluster is already running in " + layout.root()
                + " (see: whale local-cluster status; stop it with: whale local-cluster down)");
        }
        Optional<HostsCluster> earlier = HostsCluster.of(layout, out);
        if (earlier.isPresent() && !earlier.get().existingNamespaces().isEmpty()) {
            throw new LocalClusterException("the network namespaces of an earlier cluster in " + layout.root() + " still exist "
                + earlier.get().existingNamespaces() + "; remove them with: whale local-cluster down --dir " + layout.root());
        }
    }

    /** Five random letters and digits: namespace names are machine-wide, and every cluster needs its own. */
    private static String newClusterId() {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
        SecureRandom random = new SecureRandom();
        while (true) {
            StringBuilder id = new StringBuilder();
            for (int i = 0; i < 5; i++) {
                id.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            if (!HostNetwork.exists("whale-" + id + "-h0")) {
                return id.toString();
            }
        }
    }

    /** Prints the daemons, the emulated hosts (if any), supervisors and topologies; true when everything is up. */
    public boolean status(boolean json) {
        PortPlan plan = layout.readPlan();
        Optional<HostsCluster> hosts = HostsCluster.of(layout, out);
        String nimbusHost = hosts.map(h -> h.plan().address(0)).orElse(ClusterAddresses.LOOPBACK);
        Map<String, Long> daemons = new LinkedHashMap<>();
        for (String name : layout.daemons(plan)) {
            daemons.put(name, new DaemonProcess(name, layout).pid().orElse(null));
        }
        // Outside host 0 (its namespace is gone) Nimbus's address is no address of ours: it is not asked.
        boolean nimbusReachable = hosts.isEmpty() || HostNetwork.isCurrent(hosts.get().plan().namespace(0));
        Optional<ClusterSummary> summary = nimbusReachable ? new NimbusProbe(nimbusHost, plan.nimbus()).summary() : Optional.empty();
        boolean allUp = !daemons.containsValue(null) && summary.isPresent() && summary.get().get_supervisors_size() == plan.supervisors();
        if (json) {
            out.println(statusJson(plan, nimbusHost, daemons, summary, hosts, allUp));
            return allUp;
        }
        daemons.forEach((name, pid) -> out.printf("%-13s %s%n", name, pid == null ? "NOT RUNNING" : "running, pid " + pid));
        hosts.ifPresent(HostsCluster::printHosts);
        if (!nimbusReachable) {
            out.printf("host 0's namespace %s does not exist: the cluster is down%n", hosts.get().plan().namespace(0));
            return false;
        }
        if (summary.isEmpty()) {
            out.printf("Nimbus at %s:%d does not answer%n", nimbusHost, plan.nimbus());
            return false;
        }
        for (SupervisorSummary s : summary.get().get_supervisors()) {
            out.printf("supervisor %s on %s: %d/%d slots used%n", s.get_supervisor_id(), s.get_host(),
                s.get_num_used_workers(), s.get_num_workers());
        }
        for (TopologySummary t : summary.get().get_topologies()) {
            out.printf("topology %s: %s, %d worker(s), %d executor(s)%n", t.get_name(), t.get_status(),
                t.get_num_workers(), t.get_num_executors());
        }
        return allUp;
    }

    private String statusJson(PortPlan plan, String nimbusHost, Map<String, Long> daemons, Optional<ClusterSummary> summary,
                              Optional<HostsCluster> hosts, boolean allUp) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("dir", layout.root().toString());
        doc.put("up", allUp);
        doc.put("zookeeper", nimbusHost + ":" + plan.zookeeper());
        doc.put("nimbus", nimbusHost + ":" + plan.nimbus());
        doc.put("nimbusAnswers", summary.isPresent());
        doc.put("ui", layout.withUi() ? "http://" + nimbusHost + ":" + plan.ui() + "/" : null);
        doc.put("daemonPids", daemons);
        doc.put("subnet", hosts.map(h -> h.plan().subnet().toString()).orElse(null));
        doc.put("hosts", hosts.map(HostsCluster::report).orElse(List.of()));
        List<Map<String, Object>> supervisors = new ArrayList<>();
        List<Map<String, Object>> topologies = new ArrayList<>();
        summary.ifPresent(s -> {
            s.get_supervisors().forEach(v -> supervisors.add(Map.of("id", v.get_supervisor_id(), "host", v.get_host(),
                "slots", v.get_num_workers(), "slotsUsed", v.get_num_used_workers())));
            s.get_topologies().forEach(t -> topologies.add(Map.of("name", t.get_name(), "id", t.get_id(), "status", t.get_status(),
                "workers", t.get_num_workers(), "executors", t.get_num_executors())));
        });
        doc.put("supervisors", supervisors);
        doc.put("topologies", topologies);
        try {
            return new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Stops Supervisors (with their workers), Nimbus and ZooKeeper, by pid, and forgets the workers' pids
     * ({@link WorkerPids#forget}); then, for emulated hosts, every process left in their namespaces and the namespaces
     * themselves (with their links, bridge and qdiscs), and their CPU control groups. A second {@code down} finds
     * nothing to do.
     */
    public void down() {
        PortPlan plan = layout.readPlan();
        Optional<HostsCluster> hosts = HostsCluster.of(layout, out);
        if (hosts.isPresent()) {
            HostNetwork.requireRoot("local-cluster down of a cluster of emulated hosts");
        }
        List<String> names = new ArrayList<>(layout.daemons(plan));
        Collections.reverse(names);
        // the Supervisors (with their workers), the UI and Nimbus side by side; ZooKeeper after them, which they may
        // still talk to while they shut down
        Map<Boolean, List<DaemonProcess>> zookeeperOrNot = names.stream().map(n -> new DaemonProcess(n, layout))
            .collect(Collectors.partitioningBy(d -> d.name().equals(LocalClusterLayout.ZOOKEEPER)));
        stopAndReport(zookeeperOrNot.get(false));
        stopAndReport(zookeeperOrNot.get(true));
        DaemonProcess.stopAll(WorkerPids.under(layout.root().resolve("data")));
        WorkerPids.forget(layout.root().resolve("data"));
        hosts.ifPresent(h -> {
            h.removeNetwork();
            h.removeCpuGroups();
        });
        out.println("local cluster in " + layout.root() + " is down");
    }

    private void stopAndReport(List<DaemonProcess> daemons) {
        List<DaemonProcess.Stopped> outcomes = DaemonProcess.stopTogether(daemons);
        for (int i = 0; i < daemons.size(); i++) {
            DaemonProcess.Stopped stopped = outcomes.get(i);
            String outcome = switch (stopped.check()) {
                case OURS -> "stopped";
                case GONE -> "was not running";
                case OTHER -> "was not running: its pid " + stopped.recorded().map(PidRecord::pid).orElseThrow()
                    + " now belongs to another process, which was left alone";
            };
            out.printf("%-13s %s%n", daemons.get(i).name(), outcome);
        }
    }

    /** {@code fault HOST partition|heal|kill|slow MBIT} on a running cluster of emulated hosts. */
    public void fault(int host, String kind, OptionalInt mbit) {
        HostsCluster hosts = HostsCluster.of(layout, out).orElseThrow(() -> new LocalClusterException(
            "no cluster of emulated hosts in " + layout.root() + ": faults need one started with: whale local-cluster up --hosts N"));
        HostNetwork.requireRoot("local-cluster fault");
        hosts.fault(host, kind, mbit);
    }

    private boolean anyAlive(PortPlan plan) {
        return layout.daemons(plan).stream().anyMatch(n -> new DaemonProcess(n, layout).pid().isPresent());
    }

    private void awaitZookeeper(String host, PortPlan plan, List<DaemonProcess> started, long deadline) {
        while (true) {
            checkAlive(started);
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, plan.zookeeper()), 1_000);
                return;
            } catch (IOException notYet) {
                pause(deadline, "ZooKeeper to listen on " + host + ":" + plan.zookeeper());
            }
        }
    }

    private ClusterSummary awaitRegistered(String host, PortPlan plan, List<DaemonProcess> started, long deadline) {
        NimbusProbe nimbus = new NimbusProbe(host, plan.nimbus());
        while (true) {
            checkAlive(started);
            Optional<ClusterSummary> summary = nimbus.summary();
            if (summary.isPresent() && summary.get().get_supervisors_size() >= plan.supervisors()) {
                return summary.get();
            }
            pause(deadline, summary.isEmpty() ? "Nimbus to answer on " + host + ":" + plan.nimbus()
                : plan.supervisors() + " supervisors to register (" + summary.get().get_supervisors_size() + " so far)");
        }
    }

    private static void checkAlive(List<DaemonProcess> started) {
        for (DaemonProcess daemon : started) {
            if (daemon.pid().isEmpty()) {
                throw new LocalClusterException(daemon.name() + " died at start.\n" + daemon.tailOfLog(30));
            }
        }
    }

    private static void pause(long deadline, String waitingFor) {
        if (System.nanoTime() > deadline) {
            throw new LocalClusterException("timed out waiting for " + waitingFor);
        }
        try {
            Thread.sleep(250);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalClusterException("interrupted while waiting for " + waitingFor);
        }
    }

    /** {@code -c key=value} given to {@code whale local-cluster up}, as YAML lines (JSON is YAML) for the cluster's conf. */
    private static List<String> overridesFromCommandLine() {
        List<String> lines = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        Utils.readCommandLineOpts().forEach((key, value) -> {
            try {
                lines.add(key + ": " + json.writeValueAsString(value));
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("-c " + key + ": cannot write its value " + value + " to YAML", e);
            }
        });
        return lines;
    }

    private static Path whaleHome() {
        return Path.of(requiredProperty("storm.home"));
    }

    private static Path whaleBin() {
        return Path.of(requiredProperty("whale.bin"));
    }

    private static String requiredProperty(String key) {
        String value = System.getProperty(key);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("system property " + key + " is not set; run through bin/whale");
        }
        return value;
    }

    /** Command-line options of {@code whale local-cluster}. */
    static final class Options {
        String action;
        Path dir = Path.of("local-cluster");
        int supervisors = 2;
        int hosts;
        OptionalInt linkMbit = OptionalInt.empty();
        OptionalDouble hostCpus = OptionalDouble.empty();
        Optional<Ipv4Cidr> subnet = Optional.empty();
        int slots = 4;
        int basePort = PortPlan.DEFAULT_BASE;
        Duration timeout = Duration.ofSeconds(180);
        boolean json;
        Optional<String> user = Optional.empty();
        int faultHost;
        String fault;
        OptionalInt faultMbit = OptionalInt.empty();

        static Options parse(String[] args) {
            if (args.length == 0) {
                throw new IllegalArgumentException(USAGE);
            }
            Options o = new Options();
            o.action = args[0];
            int i = 1;
            if (o.action.equals("fault")) {
                if (args.length < 3) {
                    throw new IllegalArgumentException("fault needs a host and what to do\n" + USAGE);
                }
                o.faultHost = number("fault HOST", args[1]);
                o.fault = args[2];
                i = 3;
                if (o.fault.equals("slow")) {
                    if (args.length < 4) {
                        throw new IllegalArgumentException("fault HOST slow needs a rate in Mbit/s\n" + USAGE);
                    }
                    o.faultMbit = OptionalInt.of(HostNetworkPlan.checkRate(number("fault HOST slow", args[3])));
                    i = 4;
                } else if (!List.of("partition", "heal", "kill").contains(o.fault)) {
                    throw new IllegalArgumentException("unknown fault '" + o.fault + "': partition, heal, kill or slow MBIT");
                }
            }
            for (; i < args.length; i++) {
                String flag = args[i];
                if (flag.equals("--json")) {
                    o.json = true;
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(flag + " needs a value\n" + USAGE);
                }
                String value = args[++i];
                switch (flag) {
                    case "--supervisors" -> o.supervisors = number(flag, value);
                    case "--hosts" -> o.hosts = positive(flag, value);
                    case "--link-mbit" -> o.linkMbit = OptionalInt.of(HostNetworkPlan.checkRate(number(flag, value)));
                    case "--host-cpus" -> o.hostCpus = OptionalDouble.of(CpuGroups.checkCores(decimal(flag, value),
                        Runtime.getRuntime().availableProcessors()));
                    case "--subnet" -> o.subnet = Optional.of(Ipv4Cidr.parse(value));
                    case "--slots" -> o.slots = number(flag, value);
                    case "--base-port" -> o.basePort = number(flag, value);
                    case "--timeout" -> o.timeout = Duration.ofSeconds(number(flag, value));
                    case "--dir" -> o.dir = Path.of(value);
                    case "--user" -> o.user = Optional.of(value);
                    default -> throw new IllegalArgumentException("unknown option " + flag + "\n" + USAGE);
                }
            }
            if (o.hosts == 0 && (o.linkMbit.isPresent() || o.subnet.isPresent() || o.hostCpus.isPresent())) {
                throw new IllegalArgumentException("--link-mbit, --host-cpus and --subnet shape emulated hosts: give --hosts N too");
            }
            return o;
        }

        private static int positive(String flag, String value) {
            int n = number(flag, value);
            if (n < 1) {
                throw new IllegalArgumentException(flag + " takes a positive number, got " + n);
            }
            return n;
        }

        private static double decimal(String flag, String value) {
            try {
                return Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " takes a number, got '" + value + "'");
            }
        }

        private static int number(String flag, String value) {
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " takes a number, got '" + value + "'");
            }
        }
    }
}
