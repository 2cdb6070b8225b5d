package io.whale.bench.paper;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The command line of {@code dev-tools/bench-paper.sh}; see {@link #USAGE}. */
record PaperOptions(boolean quick, Path out, List<PaperFigure> figures, List<PaperApp> apps, List<PaperSystem> systems,
                    List<Integer> matchers, int workers, int repeats, int hosts, int linkMbit, int warmupSeconds,
                    int measureSeconds, int probes, int p99BoundMillis, long records, List<String> settings, int stepSeconds,
                    boolean resume, double hostCpus, boolean reportOnly) {
    /**
     * Figs. 23–24: the offered rate's steps, as shares of the base rate (the paper's 30k, 60k, 80k, 100k, 80k tuples/s,
     * each for 40 s; here each for {@code --step-s}).
     */
    static final List<Double> STEP_SHARES = List.of(0.3, 0.6, 0.8, 1.0, 0.8);
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

        + "\n  systems (default: those of the figures): storm, whale-woc, whale-woc-plainacks, whale-woc-rdma, whale-woc-rdma-binomial,"
        + " whale-woc-rdma-nonblock";

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
        List<PaperSystem> chosen = null;
        boolean resume = false;
        boolean reportOnly = false;
        double hostCpus = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> { }
                case "--resume" -> resume = true;
                case "--report-only" -> reportOnly = true;
                case "--out" -> out = Path.of(value(args, ++i));
                case "--figures" -> figures = list(value(args, ++i), PaperFigure::byNumber);
                case "--systems" -> chosen = list(value(args, ++i), PaperSystem::byOption);
                case "--matchers" -> matchers = list(value(args, ++i), v -> atLeast("--matchers", Integer.parseInt(v), 1));
                case "--repeats" -> repeats = atLeast("--repeats", Integer.parseInt(value(args, ++i)), 1);
                case "--hosts" -> hosts = atLeast("--hosts", Integer.parseInt(value(args, ++i)), 2);
                case "--link-mbit" -> linkMbit = atLeast("--link-mbit", Integer.parseInt(value(args, ++i)), 1);
                case "--host-cpus" -> hostCpus = positive("--host-cpus", Double.parseDouble(value(args, ++i)));
                case "--workers" -> workers = atLeast("--workers", Integer.parseInt(value(args, ++i)), 1);
                case "--warmup-s" -> warmup = atLeast("--warmup-s", Integer.parseInt(value(args, ++i)), 0);
                case "--measure-s" -> measure = atLeast("--measure-s", Integer.parseInt(value(args, ++i)), 1);
                case "--probes" -> probes = atLeast("--probes", Integer.parseInt(value(args, ++i)), 0);
                case "--p99-bound-ms" -> p99Bound = atLeast("--p99-bound-ms", Integer.parseInt(value(args, ++i)), 1);
                case "--records" -> records = atLeast("--records", Integer.parseInt(value(args, ++i)), 1_000);
                case "--step-s" -> stepSeconds = atLeast("--step-s", Integer.parseInt(value(args, ++i)), 1);
                case "--set" -> settings.add(setting(value(args, ++i)));
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "\n" + USAGE);
            }
        }
        if (resume && reportOnly) {
            throw new IllegalArgumentException("--resume runs what DIR/results.json lacks, --report-only runs nothing: choose one\n" + USAGE);
        }
        Set<PaperApp> apps = new LinkedHashSet<>();
        Set<PaperSystem> systems = new LinkedHashSet<>(List.of(PaperSystem.STORM));
        for (PaperFigure f : figures) {
            apps.add(f.app());
            systems.addAll(f.systems());
        }
        // Ack combining off is an ablation of the figures' Whale-WOC, not a system of the paper's: run when asked for.
        systems.remove(PaperSystem.WOC_PLAIN_ACKS);
        if (quick) {
            // A smoke: the binomial tree's series of Figs. 17-20 is the one it leaves out (the relay trees' own cluster
            // tests run it), so that the run stays within some 15 minutes.
            systems.remove(PaperSystem.WOC_RDMA_BINOMIAL);
        }
        if (settings.contains(AT_MOST_ONCE) && apps.contains(PaperApp.STOCK)) {
            throw new IllegalArgumentException("--set " + AT_MOST_ONCE + " (at-most-once) counts progress at the sink, one result per "
                + "record, which only ride-hailing gives: choose ride-hailing's figures (--figures " + Arrays.stream(PaperFigure.values())
                .filter(f -> f.app() == PaperApp.RIDEHAILING).map(f -> String.valueOf(f.number())).collect(Collectors.joining(","))
                + ")\n" + USAGE);
        }
        Set<PaperSystem> run = chosen == null ? systems : new LinkedHashSet<>(chosen);
        List<PaperSystem> ordered = Arrays.stream(PaperSystem.values()).filter(run::contains).toList();
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
    List<PaperSystem> systemsOf(PaperApp app) {
        return systems.stream().filter(s -> s == PaperSystem.STORM || figures.stream().anyMatch(f -> f.app() == app && f.systems().contains(s)))
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

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value\n" + USAGE);
        }
        return args[i];
    }

    private static int atLeast(String option, int value, int least) {
        if (value < least) {
            throw new IllegalArgumentException(option + " must be at least " + least + ", not " + value + "\n" + USAGE);
        }
        return value;
    }

    private static double positive(String option, double value) {
        if (!(value > 0)) {
            throw new IllegalArgumentException(option + " takes a positive number of cores, not " + value + "\n" + USAGE);
        }
        return value;
    }

    private static String setting(String keyValue) {
        if (!keyValue.matches("[^=\\s]+=.*")) {
            throw new IllegalArgumentException("--set takes KEY=VALUE, not '" + keyValue + "'\n" + USAGE);
        }
        return keyValue;
    }

    private static <T> List<T> list(String csv, Function<String, T> parse) {
        return Arrays.stream(csv.split(",")).map(String::trim).distinct().map(parse).toList();
    }
}
