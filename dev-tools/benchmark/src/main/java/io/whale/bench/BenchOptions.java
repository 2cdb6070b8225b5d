package io.whale.bench;

import io.whale.examples.smoke.RateSchedule;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The driver's command line; see {@link #USAGE}. {@code --tuned} is short for {@code --waits level2-0}.
 */
record BenchOptions(boolean quick, Path out, List<Integer> matchers, List<Integer> workers, List<String> transports,
                    List<BenchSystem> systems, List<WaitSetting> waits, double ratePerSecond, int repeats, boolean ceiling,
                    List<String> settings, double sustainableP99BoundMillis, int probes, int hosts, int linkMbit, double hostCpus,
                    int warmupSeconds, int measureSeconds, RateSchedule rateSteps, int ackingPending) {
    /** Storm's own transport, what a topology gets without {@code whale.transport}. */
    static final String DEFAULT_TRANSPORT = "netty";
    /** The values {@code whale.transport} accepts. */
    static final Set<String> TRANSPORTS = Set.of("netty", "rdma");
    static final String USAGE = "usage: bench-woc.sh [--quick] [--out DIR] [--matchers P,P,...] [--workers W,W,...] "
        + "[--transports netty,rdma] [--systems stock,woc-off,woc-on,woc-nowindow,woc-fixedwindow,woc-binomial,woc-nonblocking,woc-auto,woc-auto-fixedwindow] [--waits default,park100,level2-0,level2-0-sleep4,whale-sleep,whale-storm] [--tuned] "
        + "[--rate TUPLES_PER_S | --find-sustainable P99_BOUND_MS [--probes N] | --rate-steps R1:S1,R2:S2,...] [--repeats N] [--no-ceiling] [--set KEY=VALUE]... "
        + "[--hosts N [--link-mbit R] [--host-cpus C]] [--warmup-s S] [--measure-s S] [--acking MAX_SPOUT_PENDING]";

    static BenchOptions parse(String... args) {
        boolean quick = List.of(args).contains("--quick");
        Path out = Path.of("dev-tools/benchmark/target/bench-woc");
        List<Integer> matchers = quick ? List.of(4, 16) : List.of(4, 8, 16, 32, 64);
        List<Integer> workers = quick ? List.of(2) : List.of(2, 4);
        List<String> transports = List.of(DEFAULT_TRANSPORT);
        List<BenchSystem> systems = List.of(BenchSystem.WOC_OFF, BenchSystem.WOC_ON);
        List<WaitSetting> waits = List.of(WaitSetting.DEFAULT);
        double rate = 0;
        int repeats = 1;
        boolean ceiling = true;
        List<String> settings = new java.util.ArrayList<>();
        double sustainableBound = 0;
        int probes = 5;
        int hosts = 0;
        int linkMbit = 0;
        double hostCpus = 0;
        int warmup = quick ? 5 : 10;
        int measure = quick ? 5 : 15;
        RateSchedule rateSteps = null;
        int ackingPending = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> { }
                case "--tuned" -> waits = List.of(WaitSetting.NO_PARK_LEVEL);
                case "--out" -> out = Path.of(value(args, ++i));
                case "--matchers" -> matchers = list(value(args, ++i), Integer::valueOf);
                case "--workers" -> workers = list(value(args, ++i), Integer::valueOf);
                case "--transports" -> transports = transports(value(args, ++i));
                case "--systems" -> systems = list(value(args, ++i), BenchSystem::byOption);
                case "--waits" -> waits = list(value(args, ++i), WaitSetting::byOption);
                case "--rate" -> rate = positive("--rate", Double.parseDouble(value(args, ++i)));
                case "--rate-steps" -> rateSteps = rateSteps(value(args, ++i));
                case "--repeats" -> repeats = (int) positive("--repeats", Integer.parseInt(value(args, ++i)));
                case "--no-ceiling" -> ceiling = false;
                case "--set" -> settings.add(setting(value(args, ++i)));
                case "--find-sustainable" -> sustainableBound = positive("--find-sustainable", Double.parseDouble(value(args, ++i)));
                case "--hosts" -> hosts = (int) positive("--hosts", Integer.parseInt(value(args, ++i)));
                case "--link-mbit" -> linkMbit = (int) positive("--link-mbit", Integer.parseInt(value(args, ++i)));
                case "--host-cpus" -> hostCpus = positive("--host-cpus", Double.parseDouble(value(args, ++i)));
                case "--probes" -> probes = (int) positive("--probes", Integer.parseInt(value(args, ++i)));
                case "--warmup-s" -> warmup = Integer.parseInt(value(args, ++i));
                case "--measure-s" -> measure = Integer.parseInt(value(args, ++i));
                case "--acking" -> ackingPending = (int) positive("--acking", Integer.parseInt(value(args, ++i)));
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "\n" + USAGE);
            }
        }
        if ((rate > 0 ? 1 : 0) + (sustainableBound > 0 ? 1 : 0) + (rateSteps != null ? 1 : 0) > 1) {
            throw new IllegalArgumentException("--rate, --find-sustainable and --rate-steps exclude each other\n" + USAGE);
        }
        if ((linkMbit > 0 || hostCpus > 0) && hosts == 0) {
            throw new IllegalArgumentException("--link-mbit and --host-cpus shape emulated hosts: give --hosts too\n" + USAGE);
        }
        return new BenchOptions(quick, out.toAbsolutePath(), matchers, workers, transports, systems, waits, rate, repeats,
            ceiling, List.copyOf(settings), sustainableBound, probes, hosts, linkMbit, hostCpus, warmup, measure, rateSteps, ackingPending);
    }

    /** Whether each point runs the spout's rate steps over time ({@link RateStepRun}) instead of one window. */
    boolean stepsRate() {
        return rateSteps != null;
    }

    /** Whether each point searches its sustainable rate ({@link SustainableSearch}) instead of running once. */
    boolean findsSustainable() {
        return sustainableP99BoundMillis > 0;
    }

    /** The {@code local-cluster up} options of the cluster layout: 2 Supervisors on loopback, or N emulated hosts. */
    List<String> clusterLayout() {
        if (hosts == 0) {
            return List.of("--supervisors", "2", "--slots", "4");
        }
        // One slot per host when every W fits: each worker then has a host (and a link) of its own.
        int slots = workers.stream().allMatch(w -> w <= hosts) ? 1 : 4;
        List<String> layout = new java.util.ArrayList<>(List.of("--hosts", String.valueOf(hosts), "--slots", String.valueOf(slots)));
        if (linkMbit > 0) {
            layout.addAll(List.of("--link-mbit", String.valueOf(linkMbit)));
        }
        if (hostCpus > 0) {
            layout.addAll(List.of("--host-cpus", String.valueOf(hostCpus)));
        }
        return layout;
    }

    boolean runsStock() {
        return systems.contains(BenchSystem.STOCK);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value\n" + USAGE);
        }
        return args[i];
    }

    private static String setting(String keyValue) {
        if (!keyValue.matches("[^=\\s]+=.*")) {
            throw new IllegalArgumentException("--set takes KEY=VALUE, not '" + keyValue + "'\n" + USAGE);
        }
        return keyValue;
    }

    private static double positive(String option, double value) {
        if (!(value > 0)) {
            throw new IllegalArgumentException(option + " must be positive, not " + value + "\n" + USAGE);
        }
        return value;
    }

    private static RateSchedule rateSteps(String text) {
        RateSchedule schedule;
        try {
            schedule = RateSchedule.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--rate-steps: " + e.getMessage() + "\n" + USAGE, e);
        }
        if (schedule.lengthNanos() == Long.MAX_VALUE) {
            throw new IllegalArgumentException("--rate-steps: the last step of '" + text + "' needs its seconds (RATE:SECONDS), so "
                + "that the run ends\n" + USAGE);
        }
        return schedule;
    }

    private static <T> List<T> list(String csv, Function<String, T> parse) {
        return Arrays.stream(csv.split(",")).map(String::trim).distinct().map(parse).toList();
    }

    private static List<String> transports(String csv) {
        List<String> names = list(csv, Function.identity());
        for (String name : names) {
            if (!TRANSPORTS.contains(name)) {
                throw new IllegalArgumentException("--transports takes netty and/or rdma, not '" + name + "'\n" + USAGE);
            }
        }
        return names;
    }
}
