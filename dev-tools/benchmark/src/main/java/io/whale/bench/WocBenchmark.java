package io.whale.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.whale.examples.demo.DemoSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The driver: brings the local multi-process cluster up once (and, with {@code --systems stock}, a second one from
 * the stock Storm home on other ports; idle daemons of both stay up for the whole run, so every point shares the
 * same background), then for each {@link BenchPoint} submits the topology with {@code whale jar} to its system's
 * cluster, warms up, measures one window (task reports, the spout worker's CPU time, loopback bytes, the spout
 * worker's Whale counters from its worker.log), kills the topology and waits until its workers are gone. Prints a
 * row per point, then the repeats summarised ({@link PointSummary}), and saves {@code results.json} and PNG plots.
 * Started by {@code dev-tools/bench-woc.sh}, which sets {@code whale.bin} (the distribution's bin/whale),
 * {@code whale.stock.bin} (the stock home's, with {@code --systems stock}), {@code whale.bench.jar} (the topology
 * jar) and {@code whale.bench.command}.
 */
public final class WocBenchmark {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    /** The stock cluster's ports, clear of the Whale cluster's (16000 and up). */
    private static final int STOCK_BASE_PORT = 17000;
    /** How often a rate-step run samples the task reports (which the tasks write every 0.5 s). */
    private static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(1);
    /** How often it looks again when a task has not reported since the last sample. */
    private static final Duration SAMPLE_POLL = Duration.ofMillis(100);

    private final DemoSession session;
    private final DemoSession stockSession;
    private final BenchOptions options;
    private final Path topologyJar;
    private final Path clusterDir;
    private final Path stockClusterDir;
    private final List<RateStepRun> rateStepRuns = new ArrayList<>();

    WocBenchmark(DemoSession session, DemoSession stockSession, BenchOptions options, Path topologyJar) {
        this.session = session;
        this.stockSession = stockSession;
        this.options = options;
        this.topologyJar = topologyJar;
        this.clusterDir = options.out().resolve("cluster");
        this.stockClusterDir = options.out().resolve("cluster-stock");
    }

    public static void main(String[] args) throws Exception {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        String stockBin = System.getProperty("whale.stock.bin");
        if (options.runsStock() && stockBin == null) {
            System.err.println("--systems stock needs the stock Storm home (whale.stock.bin): run through dev-tools/bench-woc.sh");
            System.exit(2);
        }
        new WocBenchmark(DemoSession.fromWhaleCommand(), options.runsStock() ? new DemoSession(Path.of(stockBin)) : null, options,
            Path.of(System.getProperty("whale.bench.jar"))).run();
    }

    void run() throws IOException, InterruptedException {
        Files.createDirectories(options.out());
        List<PointResult> results = new ArrayList<>();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("command", System.getProperty("whale.bench.command", "bench-woc.sh"));
        json.put("started", Instant.now().toString());
        json.put("loadAverageAtStart", ProcFiles.loadAverage());
        json.put("settings", settings());
        json.put("points", results);
        List<Map<String, Object>> sustainable = new ArrayList<>();
        if (options.findsSustainable()) {
            json.put("sustainable", sustainable);
        }
        try (session) {
            session.onClose("stopping the local cluster", () ->
                session.whale(List.of("local-cluster", "down", "--dir", clusterDir.toString())));
            DemoSession.step("starting the local cluster (" + String.join(" ", options.clusterLayout()) + ") in " + clusterDir);
            List<String> up = new ArrayList<>(List.of("local-cluster", "up"));
            up.addAll(options.clusterLayout());
            if ("root".equals(System.getProperty("user.name"))) {
                up.addAll(List.of("--user", "root")); // the runs' tasks report to folders the harness makes, as root
            }
            session.whale(concat(up, List.of("--dir", clusterDir.toString())));
            if (stockSession != null) {
                session.onClose("stopping the stock Storm cluster", stockSession::close);
                stockSession.onClose("stopping the stock Storm cluster", () ->
                    stockSession.whale(List.of("local-cluster", "down", "--dir", stockClusterDir.toString())));
                DemoSession.step("starting a stock Apache Storm 2.8.3 cluster (same layout, ports from " + STOCK_BASE_PORT + ") in "
                    + stockClusterDir);
                stockSession.whale(concat(up, List.of("--dir", stockClusterDir.toString(), "--base-port",
                    String.valueOf(STOCK_BASE_PORT))));
            }
            if (options.stepsRate()) {
                json.put("rateStepRuns", rateStepRuns);
                for (BenchPoint point : BenchPoint.sweep(options)) {
                    RateStepRun run = rateStepRun(point);
                    rateStepRuns.add(run);
                    System.out.println(run.label() + ":");
                    run.steps().forEach(step -> System.out.println("  " + step.describe()));
                    save(json, results);
                }
            } else {
                System.out.println(PointResult.HEADER);
                for (BenchPoint point : BenchPoint.sweep(options)) {
                    PointResult unpaced = measured(point, json, results);
                    if (options.findsSustainable()) {
                        sustainable.add(findSustainable(point, unpaced, json, results));
                    }
                }
            }
        }
        json.put("finished", Instant.now().toString());
        json.put("loadAverageAtEnd", ProcFiles.loadAverage());
        save(json, results);
        if (!options.stepsRate()) {
            System.out.println();
            System.out.print(PointResult.table(results));
            System.out.println();
            System.out.print(PointSummary.table(PointSummary.of(results)));
            sustainable.forEach(s -> System.out.println("sustainable: " + s));
        }
        System.out.println("results: " + options.out().resolve("results.json") + " and " + options.out() + "/*.png");
    }

    private PointResult measured(BenchPoint point, Map<String, Object> json, List<PointResult> results)
        throws IOException, InterruptedException {
        PointResult result = measure(point);
        results.add(result);
        System.out.println(result.rowWithWarnings());
        save(json, results);
        return result;
    }

    /**
     * Searches the highest offered rate kept up, from the unpaced run's emitted rate as the capacity (a
     * {@link RateSearch}); returns what it found.
     */
    private Map<String, Object> findSustainable(BenchPoint point, PointResult unpaced, Map<String, Object> json,
                                                List<PointResult> results) throws IOException, InterruptedException {
        RateSearch search = new RateSearch(options.probes());
        double capacity = unpaced.emittedPerSecond();
        PointResult best = null;
        for (OptionalDouble share = search.next(); share.isPresent(); share = search.next()) {
            PointResult probe = measured(point.atRate(Math.rint(share.getAsDouble() * capacity)), json, results);
            boolean keptUp = RateSearch.keptUp(probe.offeredRatePerSecond(), probe.backlogGrowthPerSecond(), probe.p99Millis(),
                options.sustainableP99BoundMillis());
            search.record(share.getAsDouble(), keptUp);
            if (keptUp && (best == null || probe.offeredRatePerSecond() > best.offeredRatePerSecond())) {
                best = probe;
            }
        }
        Map<String, Object> found = new LinkedHashMap<>();
        found.put("label", point.label());
        found.put("matchers", point.matchers());
        found.put("repeat", point.repeat());
        found.put("unpacedEmittedPerSecond", Math.round(unpaced.emittedPerSecond()));
        found.put("sustainableRatePerSecond", best == null ? 0 : best.offeredRatePerSecond());
        found.put("deliveriesPerSecond", best == null ? 0 : Math.round(best.deliveriesPerSecond()));
        found.put("p50Millis", best == null ? null : best.p50Millis());
        found.put("p99Millis", best == null ? null : best.p99Millis());
        found.put("p99BoundMillis", options.sustainableP99BoundMillis());
        return found;
    }

    private Map<String, Object> settings() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("quick", options.quick());
        s.put("systems", options.systems().stream().map(BenchSystem::option).toList());
        s.put("stockHome", options.runsStock() ? System.getProperty("whale.stock.bin") : null);
        s.put("perPointOverrides", "BenchPoint.overrides(): the system's whale.woc.enabled, whale.transport (Whale only), "
            + "the wait setting's topology.bolt.wait.*, " + OrderSpout.RATE_KEY);
        s.put("matchers", options.matchers());
        s.put("workers", options.workers());
        s.put("transports", options.transports());
        s.put("waits", options.waits().stream().map(w -> Map.of(w.option(), w.overrides())).toList());
        s.put("offeredRatePerSecond", options.stepsRate() ? "steps " + options.rateSteps()
            : options.ratePerSecond() > 0 ? options.ratePerSecond() : "unpaced");
        s.put("repeats", options.repeats());
        s.put("sharedSettings", options.settings());
        s.put("sustainableSearch", options.findsSustainable() ? Map.of("p99BoundMillis", options.sustainableP99BoundMillis(),
            "probes", options.probes(), "flatBacklogShare", RateSearch.FLAT_BACKLOG_SHARE) : "off");
        s.put("spoutWorkerCounters", "Storm's console metrics reporter every " + BenchTopology.COUNTER_REPORT_SECONDS
            + " s into the spout worker's worker.log, filtered to Whale's worker counters (" + WhaleCounterFilter.class.getSimpleName() + ")");
        s.put("warmupSeconds", options.warmupSeconds());
        s.put("measureSeconds", options.measureSeconds());
        s.put("cluster", "whale local-cluster up " + String.join(" ", options.clusterLayout())
            + (options.hosts() == 0 ? " (private network namespace, loopback only)" : " (emulated hosts)"));
        s.put("wireBytes", options.hosts() == 0 ? "loopback transmit bytes" : "transmit bytes of the spout's host's link");
        s.put("topology", "1 spout (" + (options.ackingPending() > 0 ? "at-least-once, one acker per worker, max spout pending "
            + options.ackingPending() + ", but for woc-atmostonce" : "acking off") + ") -> all grouping -> P matchers (nearest of "
            + MatcherBolt.POINTS + " points, each acking)");
        s.put("workerHeap", BenchTopology.WORKER_HEAP);
        s.put("extraWorkerOptions", System.getenv(BenchTopology.EXTRA_WORKER_OPTIONS));
        s.put("cpus", Runtime.getRuntime().availableProcessors());
        return s;
    }

    private PointResult measure(BenchPoint point) throws IOException, InterruptedException {
        String started = Instant.now().toString();
        Submitted run = submit(point, List.of());
        Path clusterDir = run.clusterDir();
        Path reports = run.reports();
        Set<Long> pids = Set.of();
        try {
            awaitAllTasksRunning(reports, point.matchers() + 1);
            TimeUnit.SECONDS.sleep(options.warmupSeconds());
            awaitQuietJit(TaskReport.readAll(reports).stream().map(TaskReport::pid).collect(Collectors.toSet()));
            List<HostLinks.Host> hosts = options.hosts() == 0 ? List.of() : HostLinks.of(clusterDir);
            List<TaskReport> first = TaskReport.readAll(reports);
            TaskReport spout = spoutOf(first);
            Optional<Path> spoutLog = WorkerCounterLog.find(clusterDir.resolve("logs"), spout.pid(), spout.workerPort());
            double cpu0 = ProcFiles.cpuSecondsOf(spout.pid());
            List<HostLinks.LinkBytes> links0 = HostLinks.read(hosts);
            List<Long> hostCpu0 = HostLinks.cpuNanos(hosts);
            long bytes0 = ProcFiles.loopbackBytes();
            Optional<WorkerCounterLog.Report> counters0 = spoutLog.flatMap(WorkerCounterLog::last);
            Set<Long> workerPids = first.stream().map(TaskReport::pid).collect(Collectors.toSet());
            Map<ThreadCpu.WorkerThread, Long> threads0 = ThreadCpu.ticksByThread(workerPids);
            ProcFiles.MachineTicks machine0 = ProcFiles.machineTicks();
            long t0 = System.nanoTime();
            TimeUnit.SECONDS.sleep(options.measureSeconds());
            List<TaskReport> last = TaskReport.readAll(reports);
            double cpu1 = ProcFiles.cpuSecondsOf(spout.pid());
            List<HostLinks.LinkBytes> links = HostLinks.between(links0, HostLinks.read(hosts));
            List<Long> hostCpu1 = HostLinks.cpuNanos(hosts);
            long bytes1 = ProcFiles.loopbackBytes();
            Optional<WorkerCounterLog.Report> counters1 = spoutLog.flatMap(WorkerCounterLog::last);
            Map<ThreadCpu.WorkerThread, Long> threads1 = ThreadCpu.ticksByThread(workerPids);
            double coresBusy = ProcFiles.machineTicks().coresBusySince(machine0, Runtime.getRuntime().availableProcessors());
            double seconds = (System.nanoTime() - t0) / 1e9;
            Window window = Window.between(first, last);
            pids = window.workerPids();
            if (!point.system().whale()) {
                requireStockWorker(spoutLog);
            }
            if (spoutLog.isEmpty()) {
                System.err.println("no worker.log of the spout's worker (pid " + spout.pid() + ", port " + spout.workerPort()
                    + ") under " + clusterDir.resolve("logs"));
            }
            long wireBytes = hosts.isEmpty() ? bytes1 - bytes0 : links.get(HostLinks.running(hosts, spout.pid()).host()).txBytes();
            return PointResult.of(point, window, seconds, cpu1 - cpu0, wireBytes, WorkerCounters.between(counters0, counters1),
                started, ProcFiles.loadAverage()[0], links, ThreadCpu.percentOfACore(ThreadCpu.usedByRole(threads0, threads1), seconds), coresBusy,
                HostLinks.coresBetween(hostCpu0, hostCpu1, seconds));
        } finally {
            kill(point, run, pids);
        }
    }

    /**
     * Extends the warm-up, slice by slice, until the workers' JIT is quiet ({@link JitQuiet}), at most
     * {@link JitQuiet#MAX_WAIT}; says how long it took, or that the window opens with the compiler still busy.
     */
    private static void awaitQuietJit(Set<Long> workerPids) throws InterruptedException {
        JitWatch watch = JitWatch.of(workerPids, JitQuiet.MAX_WAIT, System.nanoTime());
        Optional<JitWatch.Warmed> warmed;
        while ((warmed = watch.poll(System.nanoTime())).isEmpty()) {
            TimeUnit.MILLISECONDS.sleep(JitQuiet.SLICE.toMillis());
        }
        System.out.println("  " + warmed.get().describe("the warm-up"));
    }

    /** A submitted point: the cluster it runs on, its report folder and that cluster's storm.yaml. */
    private record Submitted(DemoSession session, Path clusterDir, Path reports, String conf) {
    }

    /**
     * Submits the point's topology to its system's cluster with a fresh report folder, after killing one of the same
     * name a failed run may have left.
     */
    private Submitted submit(BenchPoint point, List<String> extraArgs) throws IOException, InterruptedException {
        DemoSession session = point.system().whale() ? this.session : stockSession;
        Path clusterDir = point.system().whale() ? this.clusterDir : stockClusterDir;
        Path reports = options.out().resolve("reports").resolve(point.name());
        deleteReports(reports);
        String conf = clusterDir.resolve("conf/storm.yaml").toString();
        List<String> submit = new ArrayList<>(List.of("--config", conf));
        submit.addAll(point.overrides());
        submit.addAll(List.of("jar", topologyJar.toString(), BenchTopology.class.getName(), point.name(),
            String.valueOf(point.matchers()), String.valueOf(point.workers()), reports.toString()));
        submit.addAll(extraArgs);
        session.whaleQuietly(List.of("--config", conf, "kill", point.name(), "-w", "1"));
        session.whale(submit);
        return new Submitted(session, clusterDir, reports, conf);
    }

    /**
     * Runs the spout's rate steps: once every task runs, samples the reports each time every task has reported again
     * (at least {@link #SAMPLE_INTERVAL} apart) until a second after the schedule's end, then reads the spout
     * worker's log for the steps, switches and waterline crossings.
     */
    private RateStepRun rateStepRun(BenchPoint point) throws IOException, InterruptedException {
        Submitted run = submit(point, List.of(options.rateSteps().toString()));
        Path clusterDir = run.clusterDir();
        Path reports = run.reports();
        Set<Long> pids = Set.of();
        try {
            awaitAllTasksRunning(reports, point.matchers() + 1);
            List<TaskReport> previous = TaskReport.readAll(reports);
            TaskReport spout = spoutOf(previous);
            pids = previous.stream().map(TaskReport::pid).collect(Collectors.toSet());
            Path spoutLog = WorkerCounterLog.find(clusterDir.resolve("logs"), spout.pid(), spout.workerPort()).orElseThrow(() ->
                new IllegalStateException("no worker.log of the spout's worker (pid " + spout.pid() + ") under " + clusterDir.resolve("logs")));
            long origin = ScheduleEvent.firstStepMillis(ScheduleEvent.read(spoutLog));
            long end = origin + TimeUnit.NANOSECONDS.toMillis(options.rateSteps().lengthNanos()) + 1_000;
            boolean hosts = options.hosts() > 0;
            long previousMillis = System.currentTimeMillis();
            ProcFiles.MachineTicks previousTicks = ProcFiles.machineTicks();
            long previousTx = hosts ? ProcFiles.hostLinkBytesOf(spout.pid()) : 0;
            int cores = Runtime.getRuntime().availableProcessors();
            List<RateStepSample> samples = new ArrayList<>();
            while (System.currentTimeMillis() < end) {
                TimeUnit.MILLISECONDS.sleep(Math.max(SAMPLE_POLL.toMillis(), previousMillis + SAMPLE_INTERVAL.toMillis() - System.currentTimeMillis()));
                List<TaskReport> current = TaskReport.readAll(reports);
                if (Window.everyTaskReportedSince(previous, current)) {
                    long now = System.currentTimeMillis();
                    ProcFiles.MachineTicks ticks = ProcFiles.machineTicks();
                    long tx = hosts ? ProcFiles.hostLinkBytesOf(spout.pid()) : 0;
                    samples.add(RateStepSample.of(((previousMillis + now) / 2 - origin) / 1e3, Window.between(previous, current),
                        point.matchers(), ticks.coresBusySince(previousTicks, cores),
                        hosts ? (tx - previousTx) * 8e-3 / Math.max(1, now - previousMillis) : Double.NaN));
                    previous = current;
                    previousMillis = now;
                    previousTicks = ticks;
                    previousTx = tx;
                }
            }
            return RateStepRun.of(point, options.rateSteps().toString(), samples, ScheduleEvent.read(spoutLog));
        } finally {
            kill(point, run, pids);
        }
    }

    /** Kills the point's topology and waits until its workers (those seen, else those that reported) are gone. */
    private static void kill(BenchPoint point, Submitted run, Set<Long> pids) throws IOException, InterruptedException {
        run.session().whaleQuietly(List.of("--config", run.conf(), "kill", point.name(), "-w", "1"));
        WorkerProcesses.awaitGone(pids.isEmpty() ? TaskReport.readAll(run.reports()).stream().map(TaskReport::pid).collect(Collectors.toSet()) : pids);
    }

    private static TaskReport spoutOf(List<TaskReport> reports) {
        return reports.stream().filter(r -> r.role() == TaskReport.Role.SPOUT).findFirst().orElseThrow();
    }

    private static Path whaleBin(BenchPoint point) {
        return Path.of(System.getProperty(point.system().whale() ? "whale.bin" : "whale.stock.bin"));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Whale's client logs its WOC switch in every worker; a stock Storm worker has no such line. */
    private static void requireStockWorker(Optional<Path> workerLog) throws IOException {
        if (workerLog.isPresent() && Files.readString(workerLog.get()).contains("Worker-oriented communication")) {
            throw new IllegalStateException("a stock Storm point ran on Whale's storm-client: " + workerLog.get());
        }
    }

    /** Every task has reported and counted something, so the workers are up and the orders flow. */
    private static void awaitAllTasksRunning(Path reports, int tasks) throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            List<TaskReport> seen = TaskReport.readAll(reports);
            if (seen.size() == tasks && seen.stream().allMatch(r -> r.count() > 0)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(seen.size() + "/" + tasks + " tasks running after " + START_TIMEOUT + " in " + reports);
            }
            TimeUnit.MILLISECONDS.sleep(500);
        }
    }

    private static void deleteReports(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
        }
    }

    private void save(Map<String, Object> json, List<PointResult> results) throws IOException {
        List<PointSummary> summary = PointSummary.of(results);
        json.put("summary", summary);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(options.out().resolve("results.json").toFile(), json);
        if (options.stepsRate()) {
            RateStepPlots.write(rateStepRuns, options.rateSteps(), options.linkMbit(), options.out());
        } else {
            BenchPlots.write(summary, options.linkMbit(), options.out());
        }
    }
}
