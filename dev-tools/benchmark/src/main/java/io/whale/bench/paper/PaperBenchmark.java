package io.whale.bench.paper;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.whale.bench.BenchSystem;
import io.whale.bench.ProcFiles;
import io.whale.bench.RateStepRun;
import io.whale.bench.Spread;
import io.whale.examples.demo.DemoSession;
import io.whale.examples.smoke.RateSchedule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The driver of {@code dev-tools/bench-paper.sh}: generates each application's data once, then brings up one cluster
 * of emulated hosts at a time, each with its Kafka broker on host 0, so that nothing but the measured system runs on
 * the machine (issue 32): stock Storm's first, for its run of every application, P and round ({@link PaperRun}), whose
 * sustainable rate sets the round's common rate; then Whale's, for its systems' runs of every round, the sweeps and the
 * rate steps. It writes {@code results.json} after every run and the report ({@link PaperReport}) at the end. Exits 1
 * when a series of a figure was left without data (a run failed).
 * Started by the script, which sets {@code whale.bin}, {@code whale.stock.bin}, {@code whale.home},
 * {@code whale.bench.jar} and {@code whale.bench.command}.
 */
public final class PaperBenchmark {
    /**
     * The first system of a round (Storm) is measured at this share of its sustainable rate, and that rate is the
     * round's common rate: one it keeps up with, so that its latency there is a steady state's.
     */
    static final double COMMON_SHARE = 0.9;
    /** The application of the rate-step runs (Figs. 23–24 are the paper's ride-hailing). */
    private static final PaperApp STEPS_APP = PaperFigure.F23.app();
    private static final int STOCK_BASE_PORT = 17000;
    /** The exit code of a sitting stopped by a signal (128 + SIGTERM's 15), as the shell reports one. */
    private static final int STOPPED_EXIT = 143;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final PaperOptions options;
    private final Path whaleBin;
    private final Path stockBin;
    private final Path whaleHome;
    private final Path feedJar;
    private final List<PaperResult> results = new ArrayList<>();
    private final List<PaperStepRun> stepRuns = new ArrayList<>();
    private final List<PaperSweepRun> sweepRuns = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final Map<String, Object> run = new LinkedHashMap<>();
    /** The session of the cluster up now: once it closes on a signal (SIGTERM, Ctrl-C) the sitting ends ({@link #failed}). */
    private DemoSession current;

    PaperBenchmark(PaperOptions options, Path whaleBin, Path stockBin, Path whaleHome, Path feedJar) {
        this.options = options;
        this.whaleBin = whaleBin;
        this.stockBin = stockBin;
        this.whaleHome = whaleHome;
        this.feedJar = feedJar;
    }

    public static void main(String[] args) throws Exception {
        PaperOptions options;
        try {
            options = PaperOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        PaperBenchmark bench = new PaperBenchmark(options, Path.of(System.getProperty("whale.bin")),
            Path.of(System.getProperty("whale.stock.bin")), Path.of(System.getProperty("whale.home")),
            Path.of(System.getProperty("whale.bench.jar")));
        System.exit(bench.run());
    }

    int run() throws IOException, InterruptedException {
        Path out = options.out();
        Files.createDirectories(out);
        run.put("command", System.getProperty("whale.bench.command", "bench-paper.sh"));
        run.put("started", Instant.now().toString());
        run.put("cpus", Runtime.getRuntime().availableProcessors());
        run.put("loadAverageAtStart", ProcFiles.loadAverage()[0]);
        run.put("options", options);
        if (options.reportOnly()) {
            return redraw(out.resolve("results.json"));
        }
        if (options.resume()) {
            keep(PaperResume.kept(out.resolve("results.json"), options, JSON));
            System.out.printf("--resume: %d result(s) of complete rounds, %d of their sweeps and %d rate-step run(s) kept from %s%n",
                results.size(), sweepRuns.size(), stepRuns.size(), out.resolve("results.json"));
        }
        try {
            Map<PaperApp, Path> data = generate();
            if (options.systems().contains(BenchSystem.STORM)) {
                onCluster(stockBin, out.resolve("cluster-stock"), List.of("--base-port", String.valueOf(STOCK_BASE_PORT)),
                    "stock Apache Storm 2.8.3 cluster", storm -> rounds(storm, false, data));
            }
            if (options.systems().stream().anyMatch(BenchSystem::whale)) {
                onCluster(whaleBin, out.resolve("cluster"), List.of(), "Whale cluster", whale -> {
                    rounds(whale, true, data);
                    if (options.rateSteps()) {
                        rateSteps(whale, data.get(STEPS_APP));
                    }
                });
            }
        } catch (SittingStopped e) {
            System.out.println(e.getMessage());
            return STOPPED_EXIT;
        }
        run.put("finished", Instant.now().toString());
        save();
        return report();
    }

    /**
     * {@code --report-only}: the report of the run that wrote {@code resultsJson} (with the same options but the figures)
     * drawn again, as that run's end drew it — every run it holds, those of a round another system's failed run left
     * incomplete included, and every sweep and rate-step run; nothing is run.
     */
    private int redraw(Path resultsJson) throws IOException {
        if (!Files.exists(resultsJson)) {
            System.err.println("--report-only: " + resultsJson + " does not exist: no run to draw the report of");
            return 2;
        }
        keep(PaperResume.saved(resultsJson, options, JSON));
        JsonNode saved = JSON.readTree(resultsJson.toFile());
        saved.path("failures").forEach(f -> failures.add(f.asText()));
        for (String key : List.of("command", "started", "finished", "cpus", "loadAverageAtStart")) {
            run.put(key, JSON.treeToValue(saved.path(key), Object.class));
        }
        return report();
    }

    private void keep(PaperResume.Kept kept) {
        results.addAll(kept.results());
        sweepRuns.addAll(kept.sweepRuns());
        stepRuns.addAll(kept.stepRuns());
    }

    /** Writes the report; 1 when a series of a figure was left without data. */
    private int report() throws IOException {
        List<String> empty = new PaperReport(options, results, stepRuns, sweepRuns, run).write();
        System.out.println("report: " + options.out().resolve("report.md") + " and report.html; figures fig*.json and fig*.png; "
            + "raw results.json");
        failures.forEach(f -> System.out.println("failed run: " + f));
        if (!empty.isEmpty()) {
            System.out.println("series without data: " + String.join("; ", empty));
            return 1;
        }
        return 0;
    }

    /** What is run on one cluster while it is up: it may throw what a run throws. */
    @FunctionalInterface
    private interface ClusterWork {
        void run(PaperCluster cluster) throws IOException, InterruptedException;
    }

    /**
     * Brings a cluster up from {@code bin}'s home with its broker, loads the drivers' positions when ride-hailing runs,
     * does {@code work} on it and brings it down: one cluster at a time.
     */
    private void onCluster(Path bin, Path dir, List<String> extraLayout, String what, ClusterWork work) throws IOException, InterruptedException {
        DemoSession session = new DemoSession(bin);
        current = session;
        try (session) {
            PaperCluster cluster = new PaperCluster(session, whaleBin, dir, options.hosts());
            cluster.up(options.clusterLayout(), extraLayout, what);
            if (options.apps().contains(PaperApp.RIDEHAILING)) {
                DemoSession.step("loading the drivers' positions into topic " + PaperApp.DRIVERS_TOPIC + " at " + cluster.bootstrap());
                cluster.generateIntoKafka(List.of("gen", "ridehailing-trajectories", "--drivers", "2000", "--records", "40000", "--topic",
                    PaperApp.DRIVERS_TOPIC, "--partitions", "1", "--no-progress"));
            }
            work.run(cluster);
        }
    }

    /** Stock Storm's run of every round ({@code whale} false), or Whale's systems' runs of every round and their sweeps. */
    private void rounds(PaperCluster cluster, boolean whale, Map<PaperApp, Path> data) throws IOException, InterruptedException {
        for (PaperApp app : options.apps()) {
            for (int p : options.matchers()) {
                for (int repeat = 1; repeat <= options.repeats(); repeat++) {
                    round(app, p, repeat, cluster, whale, data.get(app));
                    if (whale) {
                        sweeps(app, p, repeat, cluster, data.get(app));
                    }
                }
            }
        }
    }

    /**
     * A round's runs on one cluster: Storm's ({@code whale} false), whose sustainable rate sets the common rate the
     * others' latency is measured at, or Whale's systems' after it.
     */
    private void round(PaperApp app, int p, int repeat, PaperCluster cluster, boolean whale, Path data)
        throws IOException, InterruptedException {
        if (PaperResume.done(results, options, app, p, repeat)) {
            DemoSession.step(app.option() + " P=" + p + " repeat " + repeat + ": kept from the earlier run (--resume)");
            return;
        }
        for (BenchSystem system : options.systemsOf(app)) {
            if (system.whale() != whale) {
                continue;
            }
            double commonRate = commonRate(app, p, repeat);
            PaperPoint point = new PaperPoint(app, system, p, options.workers(), repeat);
            DemoSession.step(point.name() + (commonRate > 0 ? String.format(" (common rate %.0f/s)", commonRate) : ""));
            try {
                PaperResult r = new PaperRun(cluster, options, whaleHome, feedJar).run(point, data, commonRate);
                results.add(r);
                System.out.println(describe(r));
            } catch (IllegalStateException e) {
                failed(point.name(), e);
            }
            save();
        }
    }

    /**
     * Figs. 11–12: after a round at the highest P, the figures' system at each value of their sweeps but the shipped one
     * (the round ran that), at the round's common rate; a run {@code results.json} already has is not run again.
     */
    private void sweeps(PaperApp app, int p, int repeat, PaperCluster whale, Path data) throws IOException, InterruptedException {
        if (p != options.highestMatchers()) {
            return;
        }
        for (PaperFigure f : options.figures()) {
            PaperSweep sweep = PaperSweep.of(f).orElse(null);
            if (sweep == null || f.app() != app || !options.systems().contains(sweep.system())) {
                continue;
            }
            PaperPoint point = new PaperPoint(app, sweep.system(), p, options.workers(), repeat);
            for (long value : sweep.values(options.quick())) {
                if (value == sweep.shipped() || sweepRuns.stream().anyMatch(r -> r.sweep() == sweep && r.value() == value
                    && r.result().repeat() == repeat)) {
                    continue;
                }
                double commonRate = commonRate(app, p, repeat);
                String name = point.name() + sweep.suffix(value);
                DemoSession.step(name + " (" + sweep.setting(value) + (commonRate > 0 ? String.format(", common rate %.0f/s)", commonRate) : ")"));
                try {
                    PaperResult r = new PaperRun(whale, options, whaleHome, feedJar).run(point, sweep.suffix(value),
                        List.of(sweep.setting(value)), data, commonRate);
                    sweepRuns.add(new PaperSweepRun(sweep, value, r));
                    System.out.println(describe(r));
                } catch (IllegalStateException e) {
                    failed(name, e);
                }
                save();
            }
        }
    }

    /**
     * The common rate of a round so far: what its first system with a common phase (Storm) measured there; before that
     * system has run, a share of each run's own capacity ({@link FeedSchedule}).
     */
    private double commonRate(PaperApp app, int p, int repeat) {
        for (BenchSystem system : options.systemsOf(app)) {
            Optional<PhaseResult> common = results.stream().filter(r -> r.app().equals(app.option()) && r.system().equals(system.option())
                && r.matchers() == p && r.repeat() == repeat && r.common() != null).map(PaperResult::common).findFirst();
            if (common.isPresent()) {
                return common.get().ratePerSecond();
            }
        }
        return -COMMON_SHARE;
    }

    /**
     * Figs. 23–24: at the highest P, each system of the figures through the offered rate's steps, each repeat; the
     * steps are {@link PaperOptions#STEP_SHARES} of the {@link StepBase}, so that, as the paper's, they end above what
     * the sequential structure carries.
     */
    private void rateSteps(PaperCluster whale, Path data) throws IOException, InterruptedException {
        int p = options.highestMatchers();
        Optional<StepBase> stepBase = StepBase.of(sustainedAt(BenchSystem.WOC_RDMA, p), sustainedAt(BenchSystem.WOC_RDMA_NONBLOCK, p));
        if (stepBase.isEmpty()) {
            String failure = "rate steps: no sustainable rate of " + BenchSystem.WOC_RDMA.label() + " or " + BenchSystem.WOC_RDMA_NONBLOCK.label()
                + " at P = " + p + " to step from";
            failures.add(failure);
            System.out.println(failure);
            return;
        }
        double base = stepBase.get().ratePerSecond();
        String baseFrom = stepBase.get().from();
        RateSchedule schedule = RateSchedule.parse(PaperOptions.STEP_SHARES.stream()
            .map(share -> Math.max(1, Math.round(share * base)) + ":" + options.stepSeconds()).collect(Collectors.joining(",")));
        stepRuns.removeIf(r -> !PaperResume.ranSchedule(r, schedule.toString()));
        for (int repeat = 1; repeat <= options.repeats(); repeat++) {
            for (BenchSystem system : PaperFigure.F23.systems()) {
                PaperPoint point = new PaperPoint(STEPS_APP, system, p, options.workers(), repeat);
                if (!options.systems().contains(system) || stepRuns.stream().anyMatch(r -> r.system().equals(system.option())
                    && r.repeat() == point.repeat())) {
                    continue;
                }
                DemoSession.step(point.name() + "-steps (offered rate " + schedule + " records/s:seconds)");
                try {
                    RateStepRun r = new PaperRun(whale, options, whaleHome, feedJar).runSteps(point, PaperFigure.F23.seriesName(system), data,
                        schedule);
                    stepRuns.add(new PaperStepRun(STEPS_APP.option(), system.option(), p, repeat, base, baseFrom, r));
                    r.steps().forEach(s -> System.out.println("  " + s.describe()));
                } catch (IllegalStateException e) {
                    failed(point.name() + "-steps", e);
                }
                save();
            }
        }
    }

    /**
     * Records a failed run, unless the sitting is being stopped: then the run failed because its cluster went away, and
     * neither it nor a failure is saved, nor does another run start ({@code --resume} runs its round again).
     */
    private void failed(String name, IllegalStateException e) {
        if (current.isClosing()) {
            throw new SittingStopped(name + " was stopped (" + e.getMessage() + "): not kept; the sitting ends here, --resume goes on with it");
        }
        failures.add(name + ": " + e.getMessage());
        System.out.println(name + " FAILED: " + e.getMessage());
    }

    /** Thrown out of the runs' loops when the sitting is being stopped. */
    private static final class SittingStopped extends RuntimeException {
        SittingStopped(String message) {
            super(message, null, false, false);
        }
    }

    private Map<PaperApp, Path> generate() throws IOException, InterruptedException {
        Map<PaperApp, Path> files = new LinkedHashMap<>();
        Files.createDirectories(options.out().resolve("data"));
        for (PaperApp app : options.apps()) {
            Path file = options.out().resolve("data").resolve(app.option() + "-" + options.records() + ".csv");
            if (!Files.exists(file)) {
                DemoSession.step("generating " + options.records() + " records of " + app.label() + " into " + file);
                List<String> command = new ArrayList<>(List.of(whaleBin.toString()));
                command.addAll(app.generate(options.records(), file));
                PaperCluster.run(command);
            }
            files.put(app, file);
        }
        return files;
    }

    private static String describe(PaperResult r) {
        StringBuilder s = new StringBuilder(String.format("  capacity %.0f records/s (busy cores %.2f, source host %d sent %.2f Mbit/s, "
            + "%.0f bytes per 10,000 records; its send path %.1f µs of CPU per record, %.0f %% of it serializing)", r.capacityPerSecond(),
            r.machineCoresBusy(), r.sourceHost(), r.sourceLinkMbit(), r.sourceBytesPer10kRecords(), r.sourceSendMicrosPerRecord(),
            r.sourceSerializationPercent()));
        if (!r.hostCores().isEmpty()) {
            s.append(String.format("%n  cores used by host 0..%d over it: %s", r.hostCores().size() - 1,
                r.hostCores().stream().map(c -> String.format("%.2f", c)).collect(Collectors.joining(", "))));
        }
        if (!r.hostTxMbit().isEmpty()) {
            s.append(String.format("%n  Mbit/s sent/received by host 0..%d over it: %s", r.hostTxMbit().size() - 1,
                IntStream.range(0, r.hostTxMbit().size())
                    .mapToObj(h -> String.format("%.2f/%.2f", r.hostTxMbit().get(h), r.hostRxMbit().get(h))).collect(Collectors.joining(", "))));
        }
        List<PhaseResult> paced = new ArrayList<>(r.search());
        if (r.common() != null) {
            paced.add(r.common());
        }
        for (PhaseResult phase : paced) {
            s.append(String.format("%n  %s at %.0f/s: offered %.0f/s, consumed %.0f/s, backlog %+.0f/s, latency mean %.0f ms p50 %.0f p99 %.0f "
                + "(%d results), multicast %.1f ms: %s", phase == r.common() ? "common" : "probe", phase.ratePerSecond(), phase.offeredPerSecond(),
                phase.consumedPerSecond(), phase.backlogGrowthPerSecond(), phase.meanMillis(), phase.p50Millis(), phase.p99Millis(),
                phase.results(), phase.multicastMillis(), phase.keptUp() ? "kept up" : "fell behind"));
        }
        if (r.sustainedRateFound()) {
            s.append(String.format("%n  throughput %.0f records/s (sustainable rate: offered to the highest paced phase that kept up%s)",
                r.throughputPerSecond(), SustainedRate.floor(r.search()) ? "; a floor: no probe above it fell behind" : ""));
        } else if (!r.search().isEmpty()) {
            s.append(String.format("%n  throughput: no paced phase kept up, so no sustainable rate was found (it lies below %.0f records/s)",
                r.rateBasisPerSecond()));
        }
        if (!r.workerLosses().isEmpty()) {
            s.append(String.format("%n  lost at the workers over the run: %s", r.workerLosses().entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "))));
        }
        return s.toString();
    }

    private void save() throws IOException {
        Map<String, Object> json = new LinkedHashMap<>(run);
        json.put("results", results);
        json.put("rateSteps", stepRuns);
        json.put("sweeps", sweepRuns);
        json.put("failures", failures);
        ResultsFile.write(JSON, options.out().resolve("results.json"), json);
    }

    /** The system's sustainable rate at P in the rounds of the steps' application (its median over them). */
    private Spread sustainedAt(BenchSystem system, int p) {
        return Spread.of(results.stream().filter(r -> r.app().equals(STEPS_APP.option()) && r.matchers() == p
            && r.system().equals(system.option())).toList(), PaperResult::rateBasisPerSecond);
    }
}
