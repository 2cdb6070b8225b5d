package io.whale.bench.paper;

import io.whale.bench.BenchSystem;
import io.whale.bench.CommandLine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The command line of {@code dev-tools/bench-paper.sh}; see {@link #USAGE}. */
record PaperOptions(boolean quick, Path out, List<PaperFigure> figures, List<PaperApp> apps, List<BenchSystem> systems,
                    List<Integer> matchers, int workers, int repeats, int hosts, int linkMbit, int warmupSeconds,
                    int measureSeconds, int probes, int p99BoundMillis, long records, List<String> settings, int stepSeconds,
                    boolean resume, double hostCpus, boolean reportOnly) {
    /**
     * Figs. 23–24: the offered rate's steps, as shares of the base rate (the paper's 30k, 60k, 80k, 100k, 80k tuples/s,
     * each for 40 s; here each for {@code --step-s}).
     */
    static final List<Double> STEP_SHARES = List.of(0.3, 0.6, 0.8, 1.0, 0.8);
    /**
     * The base rate of the steps over the sequential structure's sustainable rate: the paper's 100k tuples/s is 4/3 of
     * the 75k its sequential multicast carried (the non-blocking tree carried 1.33× it there), so its 80k and 100k steps
     * cross the sequential structure's capacity. Set from the tree's own rate (until 2026-11-30), the steps crossed it
     * only where the tree outran the sequential structure, and in the paper runs before then they never did (issue 32).
     */
    static final double STEP_BASE_OVER_SEQUENTIAL = 4.0 / 3;
    /** The setting that turns acking off: the at-most-once runs. */
    static final String AT_MOST_ONCE = "topology.acker.executors=0";

    static final String USAGE = "usage: bench-paper.sh [--quick] [--out DIR] [--figures 13,14,...] [--matchers P,P,...] "
        + "[--systems S,S,...] [--repeats N] [--hosts N] [--link-mbit R] [--host-cpus C] [--workers W] [--warmup-s S] [--measure-s S] "
        + "[--probes N] [--p99-bound-ms B] [--records N] [--step-s S] [--set KEY=VALUE]... [--resume | --report-only]\n  figures: " + PaperFigure.numbers()
        + "\n  --probes: Poisson probes of the search for each run's sustainable rate (0: none, the capacity is the throughput)"
        + "\n  --step-s: how long each step of the offered rate lasts in the rate-step runs of Figs. 23-24"
        + "\n  --host-cpus: each emulated host's cores (a CPU control group per host; default: the hosts share the machine's)"
        + "\n  --resume: keep the rounds DIR/results.json already has (same options), run the others"
        + "\n  --report-only: draw the report, figures and headline.json again from DIR/results.json (same options), run nothing"

        + "\n  systems (default: those of the figures): " + BenchSystem.options();

    static PaperOptions parse(String... args) {
        boolean quick = List.of(args).contains("--quick");
        Path out = Path.of("dev-tools/benchmark/target/bench-paper");
        List<PaperFigure> figures = List.of(PaperFigure.values());
        List<Integer> matchers = quick ? List.of(8) : List.of(8, 16, 32);
        int hosts = quick ? 4 : 8;
        int workers = 0;
        int repeats = quick ? 1 : 3;
        // 2 Mbit/s: at P = 32 Storm's source link is full (the paper's network-bound baseline); the quick run's
        // P = 8 on 4 hosts carries more at 10 (dev-tools/benchmark/PAPER.md, "Measured")
        int linkMbit = quick ? 10 : 2;
        int warmup = quick ? 6 : 15;
        int measure = quick ? 5 : 20;
        int probes = quick ? 1 : 3;
        int p99Bound = 1_000;
        long records = quick ? 50_000 : 400_000;
        int stepSeconds = quick ? 3 : 20;
        List<String> settings = new ArrayList<>();
        List<BenchSystem> chosen = null;
        boolean resume = false;
        boolean reportOnly = false;
        double hostCpus = 0;
        CommandLine line = new CommandLine(USAGE, args);
        while (line.hasNext()) {
            switch (line.next()) {
                case "--quick" -> { }
                case "--resume" -> resume = true;
                case "--report-only" -> reportOnly = true;
                case "--out" -> out = Path.of(line.value());
                case "--figures" -> figures = line.list(PaperFigure::byNumber);
                case "--systems" -> chosen = line.list(BenchSystem::byOption);
                case "--matchers" -> matchers = line.list(Integer::valueOf);
                case "--repeats" -> repeats = line.intAtLeast(1);
                case "--hosts" -> hosts = line.intAtLeast(2);
                case "--link-mbit" -> linkMbit = line.intAtLeast(1);
                case "--host-cpus" -> hostCpus = line.positive();
                case "--workers" -> workers = line.intAtLeast(1);
                case "--warmup-s" -> warmup = line.intAtLeast(0);
                case "--measure-s" -> measure = line.intAtLeast(1);
                case "--probes" -> probes = line.intAtLeast(0);
                case "--p99-bound-ms" -> p99Bound = line.intAtLeast(1);
                case "--records" -> records = line.intAtLeast(1_000);
                case "--step-s" -> stepSeconds = line.intAtLeast(1);
                case "--set" -> settings.add(line.setting());
                default -> throw line.unknown();
            }
        }
        if (matchers.stream().anyMatch(p -> p < 1)) {
            throw line.refused("--matchers must be at least 1, not " + matchers);
        }
        if (resume && reportOnly) {
            throw line.refused("--resume runs what DIR/results.json lacks, --report-only runs nothing: choose one");
        }
        Set<PaperApp> apps = new LinkedHashSet<>();
        Set<BenchSystem> systems = new LinkedHashSet<>(List.of(BenchSystem.STORM));
        for (PaperFigure f : figures) {
            apps.add(f.app());
            systems.addAll(f.systems());
        }
        // Ack combining off and polling RDMA progress threads are ablations of the figures' Whale-WOC and Whale-WOC-RDMA,
        // not systems of the paper's: run when asked for.
        systems.removeAll(List.of(BenchSystem.WOC_PLAIN_ACKS, BenchSystem.WOC_RDMA_POLLING));
        if (quick) {
            // A smoke: the binomial tree's and the fixed d* trees' series of Figs. 17-22 are those it leaves out (the relay
            // trees' own cluster tests run them), so that the run stays within some 15 minutes.
            systems.removeAll(List.of(BenchSystem.WOC_RDMA_BINOMIAL, BenchSystem.WOC_RDMA_NONBLOCK_D1, BenchSystem.WOC_RDMA_NONBLOCK_D2));
        }
        for (BenchSystem s : chosen == null ? List.<BenchSystem>of() : chosen) {
            if (s != BenchSystem.STORM && figures.stream().noneMatch(f -> f.systems().contains(s))) {
                throw line.refused("--systems " + s.option() + " is in none of the figures asked: it would not run");
            }
        }
        Set<BenchSystem> run = chosen == null ? systems : new LinkedHashSet<>(chosen);
        List<BenchSystem> ordered = Arrays.stream(BenchSystem.values()).filter(run::contains).toList();
        return new PaperOptions(quick, out.toAbsolutePath(), figures, List.copyOf(apps), ordered, matchers,
            workers == 0 ? hosts : workers, repeats, hosts, linkMbit, warmup, measure, probes, p99Bound, records, List.copyOf(settings),
            stepSeconds, resume, hostCpus, reportOnly);
    }

    /** Whether the runs are at-most-once ({@code --set topology.acker.executors=0}): no acks, progress counted at the sink. */
    boolean atMostOnce() {
        return settings.contains(AT_MOST_ONCE);
    }

    /** The processing guarantee the runs have, as the report names it. */
    String guarantee() {
        return atMostOnce() ? "at-most-once" : "at-least-once";
    }

    /** The systems a round of {@code app} runs: Storm (its sustainable rate sets the common rate) and those of the app's figures. */
    List<BenchSystem> systemsOf(PaperApp app) {
        return systems.stream().filter(s -> s == BenchSystem.STORM || figures.stream().anyMatch(f -> f.app() == app && f.systems().contains(s)))
            .toList();
    }

    /** Whether the rate-step runs of Figs. 23–24 are asked for. */
    boolean rateSteps() {
        return figures.stream().anyMatch(PaperFigure::rateSteps);
    }

    /** The highest P: the headline's, and the rate-step runs'. */
    int highestMatchers() {
        return matchers.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    /**
     * The {@code local-cluster up} options: the emulated hosts, one slot each when every worker fits, links shaped, and
     * with {@code --host-cpus} each host's cores.
     */
    List<String> clusterLayout() {
        List<String> layout = new ArrayList<>(List.of("--hosts", String.valueOf(hosts), "--slots", workers <= hosts ? "1" : "4",
            "--link-mbit", String.valueOf(linkMbit)));
        if (hostCpus > 0) {
            layout.addAll(List.of("--host-cpus", String.valueOf(hostCpus)));
        }
        return List.copyOf(layout);
    }
}
