package io.whale.bench;

import io.whale.examples.smoke.RateSchedule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The driver's command line; see {@link #USAGE}. {@code --tuned} is short for {@code --waits level2-0}.
 */
record BenchOptions(boolean quick, Path out, List<Integer> matchers, List<Integer> workers, List<String> transports,
                    List<BenchSystem> systems, List<WaitSetting> waits, double ratePerSecond, int repeats, boolean ceiling,
                    List<String> settings, double sustainableP99BoundMillis, int probes, int hosts, int linkMbit, double hostCpus,
                    int warmupSeconds, int measureSeconds, RateSchedule rateSteps, int ackingPending) {
    /** The values {@code whale.transport} accepts. */
    static final Set<String> TRANSPORTS = Set.of("netty", "rdma");
    static final String USAGE = "usage: bench-woc.sh [--quick] [--out DIR] [--matchers P,P,...] [--workers W,W,...] "
        + "[--transports netty,rdma] [--systems S,S,...] [--waits default,park100,level2-0,level2-0-sleep4] [--tuned] "
        + "[--rate TUPLES_PER_S | --find-sustainable P99_BOUND_MS [--probes N] | --rate-steps R1:S1,R2:S2,...] [--repeats N] [--no-ceiling] [--set KEY=VALUE]... "
        + "[--hosts N [--link-mbit R] [--host-cpus C]] [--warmup-s S] [--measure-s S] [--acking MAX_SPOUT_PENDING]\n  systems: "
        + BenchSystem.options();

    static BenchOptions parse(String... args) {
        boolean quick = List.of(args).contains("--quick");
        Path out = Path.of("dev-tools/benchmark/target/bench-woc");
        List<Integer> matchers = quick ? List.of(4, 16) : List.of(4, 8, 16, 32, 64);
        List<Integer> workers = quick ? List.of(2) : List.of(2, 4);
        List<String> transports = List.of(BenchSystem.DEFAULT_TRANSPORT);
        List<BenchSystem> systems = List.of(BenchSystem.WOC_OFF, BenchSystem.WOC);
        List<WaitSetting> waits = List.of(WaitSetting.DEFAULT);
        double rate = 0;
        int repeats = 1;
        boolean ceiling = true;
        List<String> settings = new ArrayList<>();
        double sustainableBound = 0;
        int probes = 5;
        int hosts = 0;
        int linkMbit = 0;
        double hostCpus = 0;
        int warmup = quick ? 5 : 10;
        int measure = quick ? 5 : 15;
        RateSchedule rateSteps = null;
        int ackingPending = 0;
        CommandLine line = new CommandLine(USAGE, args);
        while (line.hasNext()) {
            switch (line.next()) {
                case "--quick" -> { }
                case "--tuned" -> waits = List.of(WaitSetting.NO_PARK_LEVEL);
                case "--out" -> out = Path.of(line.value());
                case "--matchers" -> matchers = line.list(Integer::valueOf);
                case "--workers" -> workers = line.list(Integer::valueOf);
                case "--transports" -> transports = line.list(BenchOptions::transport);
                case "--systems" -> systems = line.list(BenchSystem::byOption);
                case "--waits" -> waits = line.list(WaitSetting::byOption);
                case "--rate" -> rate = line.positive();
                case "--rate-steps" -> rateSteps = rateSteps(line);
                case "--repeats" -> repeats = line.intAtLeast(1);
                case "--no-ceiling" -> ceiling = false;
                case "--set" -> settings.add(line.setting());
                case "--find-sustainable" -> sustainableBound = line.positive();
                case "--hosts" -> hosts = line.intAtLeast(1);
                case "--link-mbit" -> linkMbit = line.intAtLeast(1);
                case "--host-cpus" -> hostCpus = line.positive();
                case "--probes" -> probes = line.intAtLeast(1);
                case "--warmup-s" -> warmup = line.intAtLeast(0);
                case "--measure-s" -> measure = line.intAtLeast(1);
                case "--acking" -> ackingPending = line.intAtLeast(1);
                default -> throw line.unknown();
            }
        }
        if ((rate > 0 ? 1 : 0) + (sustainableBound > 0 ? 1 : 0) + (rateSteps != null ? 1 : 0) > 1) {
            throw line.refused("--rate, --find-sustainable and --rate-steps exclude each other");
        }
        if ((linkMbit > 0 || hostCpus > 0) && hosts == 0) {
            throw line.refused("--link-mbit and --host-cpus shape emulated hosts: give --hosts too");
        }
        for (BenchSystem s : systems) {
            if (transports.stream().noneMatch(s::runsOver)) {
                throw line.refused("--systems " + s.option() + " runs over " + s.transportOr("any transport")
                    + ", which --transports " + String.join(",", transports) + " leaves out");
            }
        }
        return new BenchOptions(quick, out.toAbsolutePath(), matchers, workers, transports, systems, waits, rate, repeats,
            ceiling, List.copyOf(settings), sustainableBound, probes, hosts, linkMbit, hostCpus, warmup, measure, rateSteps, ackingPending);
    }

    /** Whether each point runs the spout's rate steps over time ({@link RateStepRun}) instead of one window. */
    boolean stepsRate() {
        return rateSteps != null;
    }

    /** Whether each point searches its sustainable rate ({@link RateSearch}) instead of running once. */
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
        List<String> layout = new ArrayList<>(List.of("--hosts", String.valueOf(hosts), "--slots", String.valueOf(slots)));
        if (linkMbit > 0) {
            layout.addAll(List.of("--link-mbit", String.valueOf(linkMbit)));
        }
        if (hostCpus > 0) {
            layout.addAll(List.of("--host-cpus", String.valueOf(hostCpus)));
        }
        return layout;
    }

    boolean runsStock() {
        return systems.contains(BenchSystem.STORM);
    }

    private static RateSchedule rateSteps(CommandLine line) {
        String text = line.value();
        RateSchedule schedule;
        try {
            schedule = RateSchedule.parse(text);
        } catch (IllegalArgumentException e) {
            throw line.refused("--rate-steps: " + e.getMessage());
        }
        if (schedule.lengthNanos() == Long.MAX_VALUE) {
            throw line.refused("--rate-steps: the last step of '" + text + "' needs its seconds (RATE:SECONDS), so that the run ends");
        }
        return schedule;
    }

    private static String transport(String name) {
        if (!TRANSPORTS.contains(name)) {
            throw new IllegalArgumentException("--transports takes netty and/or rdma, not '" + name + "'");
        }
        return name;
    }
}
