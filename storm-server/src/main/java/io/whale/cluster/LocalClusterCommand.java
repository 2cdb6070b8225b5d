package io.whale.cluster;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.generated.TopologySummary;

/**
 * {@code whale local-cluster up|status|down}: a real ZooKeeper, Nimbus and N Supervisors as separate
 * processes on 127.0.0.1, with logs, pid files and state under one folder.
 */
public final class LocalClusterCommand {
    private static final String USAGE =
        "usage: whale local-cluster up|status|down [--supervisors N] [--slots K] [--dir DIR] [--base-port PORT] [--timeout SECS]";

    private final LocalClusterLayout layout;
    private final PrintStream out;

    public LocalClusterCommand(LocalClusterLayout layout, PrintStream out) {
        this.layout = layout;
        this.out = out;
    }

    public static void main(String[] args) {
        try {
            Options options = Options.parse(args);
            LocalClusterCommand command = new LocalClusterCommand(new LocalClusterLayout(options.dir), System.out);
            switch (options.action) {
                case "up" -> command.up(new PortPlan(options.basePort, options.supervisors, options.slots),
                    whaleHome(), whaleBin(), options.timeout);
                case "status" -> System.exit(command.status() ? 0 : 3);
                case "down" -> command.down();
                default -> throw new IllegalArgumentException(USAGE);
            }
        } catch (IllegalArgumentException | LocalClusterException e) {
            System.err.println("whale local-cluster: " + e.getMessage());
            System.exit(1);
        }
    }

    /** Starts every daemon, then waits until Nimbus answers and every Supervisor has registered. */
    public void up(PortPlan plan, Path whaleHome, Path whaleBin, Duration timeout) {
        if (layout.exists() && anyAlive(layout.readPlan())) {
            throw new LocalClusterException("a local cluster is already running in " + layout.root()
                + " (see: whale local-cluster status; stop it with: whale local-cluster down)");
        }
        plan.checkFree();
        layout.write(plan, whaleHome.resolve("conf/storm.yaml"));
        long deadline = System.nanoTime() + timeout.toNanos();
        List<DaemonProcess> started = new ArrayList<>();
        try {
            for (String name : LocalClusterLayout.daemons(plan)) {
                DaemonProcess daemon = new DaemonProcess(name, layout);
                long pid = daemon.start(whaleBin, whaleHome);
                started.add(daemon);
                out.printf("started %-13s pid %d%n", name, pid);
                if (name.equals(LocalClusterLayout.ZOOKEEPER)) {
                    awaitZookeeper(plan, started, deadline);
                }
            }
            ClusterSummary summary = awaitRegistered(plan, started, deadline);
            out.printf("local cluster up in %s: ZooKeeper 127.0.0.1:%d, Nimbus 127.0.0.1:%d, %d supervisor(s), %d worker slot(s)%n",
                layout.root(), plan.zookeeper(), plan.nimbus(), summary.get_supervisors_size(),
                summary.get_supervisors().stream().mapToInt(SupervisorSummary::get_num_workers).sum());
            out.printf("submit with: whale --config %s jar <topology.jar> <main class> ...%n", layout.clusterConf());
        } catch (RuntimeException e) {
            started.forEach(DaemonProcess::stop);
            throw e;
        }
    }

    public boolean status() {
        PortPlan plan = layout.readPlan();
        boolean allUp = true;
        for (String name : LocalClusterLayout.daemons(plan)) {
            Optional<Long> pid = new DaemonProcess(name, layout).pid();
            allUp &= pid.isPresent();
            out.printf("%-13s %s%n", name, pid.map(p -> "running, pid " + p).orElse("NOT RUNNING"));
        }
        Optional<ClusterSummary> summary = new NimbusProbe(plan.nimbus()).summary();
        if (summary.isEmpty()) {
            out.printf("Nimbus at 127.0.0.1:%d does not answer%n", plan.nimbus());
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
        return allUp && summary.get().get_supervisors_size() == plan.supervisors();
    }

    /** Stops Supervisors (with their workers), Nimbus and ZooKeeper, by pid. */
    public void down() {
        PortPlan plan = layout.readPlan();
        List<String> names = new ArrayList<>(LocalClusterLayout.daemons(plan));
        java.util.Collections.reverse(names);
        for (String name : names) {
            DaemonProcess daemon = new DaemonProcess(name, layout);
            Optional<PidRecord> recorded = daemon.recorded();
            String outcome = switch (daemon.stop()) {
                case OURS -> "stopped";
                case GONE -> "was not running";
                case OTHER -> "was not running: its pid " + recorded.map(PidRecord::pid).orElseThrow()
                    + " now belongs to another process, which was left alone";
            };
            out.printf("%-13s %s%n", name, outcome);
        }
        DaemonProcess.stopAll(orphanWorkers());
        out.println("local cluster in " + layout.root() + " is down");
    }

    private boolean anyAlive(PortPlan plan) {
        return LocalClusterLayout.daemons(plan).stream().anyMatch(n -> new DaemonProcess(n, layout).pid().isPresent());
    }

    /** Workers whose Supervisor died before them still hold slots: find them by the pid files they write. */
    private List<ProcessHandle> orphanWorkers() {
        Path data = layout.root().resolve("data");
        if (!Files.exists(data)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(data)) {
            return files.filter(p -> p.getParent() != null && p.getParent().getFileName().toString().equals("pids"))
                .map(p -> p.getFileName().toString())
                .filter(n -> n.chars().allMatch(Character::isDigit))
                .map(n -> ProcessHandle.of(Long.parseLong(n)))
                .flatMap(Optional::stream)
                .filter(h -> h.info().commandLine().orElse("").contains("org.apache.storm.daemon.worker.Worker"))
                .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitZookeeper(PortPlan plan, List<DaemonProcess> started, long deadline) {
        while (true) {
            checkAlive(started);
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", plan.zookeeper()), 1_000);
                return;
            } catch (IOException notYet) {
                pause(deadline, "ZooKeeper to listen on 127.0.0.1:" + plan.zookeeper());
            }
        }
    }

    private ClusterSummary awaitRegistered(PortPlan plan, List<DaemonProcess> started, long deadline) {
        NimbusProbe nimbus = new NimbusProbe(plan.nimbus());
        while (true) {
            checkAlive(started);
            Optional<ClusterSummary> summary = nimbus.summary();
            if (summary.isPresent() && summary.get().get_supervisors_size() >= plan.supervisors()) {
                return summary.get();
            }
            pause(deadline, summary.isEmpty() ? "Nimbus to answer on 127.0.0.1:" + plan.nimbus()
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
        int slots = 4;
        int basePort = PortPlan.DEFAULT_BASE;
        Duration timeout = Duration.ofSeconds(180);

        static Options parse(String[] args) {
            if (args.length == 0) {
                throw new IllegalArgumentException(USAGE);
            }
            Options o = new Options();
            o.action = args[0];
            for (int i = 1; i < args.length; i++) {
                String flag = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(flag + " needs a value\n" + USAGE);
                }
                String value = args[++i];
                switch (flag) {
                    case "--supervisors" -> o.supervisors = number(flag, value);
                    case "--slots" -> o.slots = number(flag, value);
                    case "--base-port" -> o.basePort = number(flag, value);
                    case "--timeout" -> o.timeout = Duration.ofSeconds(number(flag, value));
                    case "--dir" -> o.dir = Path.of(value);
                    default -> throw new IllegalArgumentException("unknown option " + flag + "\n" + USAGE);
                }
            }
            return o;
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
