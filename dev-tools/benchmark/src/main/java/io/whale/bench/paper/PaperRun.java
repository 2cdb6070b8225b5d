package io.whale.bench.paper;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.bench.BenchSystem;
import io.whale.bench.HostLinks;
import io.whale.bench.JitQuiet;
import io.whale.bench.JitWatch;
import io.whale.bench.ProcFiles;
import io.whale.bench.RateStepBin;
import io.whale.bench.RateStepRun;
import io.whale.bench.RateStepSample;
import io.whale.bench.ScheduleEvent;
import io.whale.bench.WaitSetting;
import io.whale.bench.WorkerCounterLog;
import io.whale.bench.WorkerProcesses;
import io.whale.examples.demo.ReportFollower;
import io.whale.examples.report.ThroughputLatencyReporter;
import io.whale.examples.smoke.RateSchedule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.apache.commons.io.FileUtils;

/**
 * Runs one {@link PaperPoint}: starts its {@link KafkaFeed} in host 0's namespace of its system's cluster, submits
 * the application with {@code whale jar} (the reporter appending to a file of the run; the links opened while it
 * starts; once its sink reports results it finds the hosts and the workers, waits until the workers' JIT compilers are
 * quiet ({@link JitWatch}: the hosts' CPU is not capped yet and the feed keeps its backlog standing, so the compilers
 * finish on the machine's cores instead of taking a fifth of a core from the measured phases), finds the broadcast
 * source's host, shapes the links again and only then releases the feed into its capacity phase), follows the feed's events —
 * at the capacity window's edges it reads every host's link counters and the machine's CPU ticks, and records the
 * source's workers with the Flight Recorder ({@link SourceRecording}, for {@link SendPathSamples}) — and when the feed
 * is done merges the reporter's histograms over each paced window. A rate-step run ({@link #runSteps}) follows the
 * feed through its steps instead, reading the machine's CPU ticks and the source host's link every second. Kills the
 * topology and waits until its workers are gone, and stops the feed, also when the run fails.
 */
final class PaperRun {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    /**
     * The quick run's longest wait for its workers' JIT ({@link JitWatch}): CI's smoke checks the gate, not a steady
     * state, beside the unit tests on the same two cores.
     */
    static final Duration QUICK_JIT_WAIT = Duration.ofSeconds(30);
    /** The links' rate while a topology starts: its jar reaches every Supervisor in a second, not in minutes. */
    static final int STARTING_LINK_MBIT = 10_000;
    /** Records kept waiting beyond the spout's max pending (2000 in the examples) and one poll (500). */
    private static final long BASE_BACKLOG = 3_000;
    /** A rate-step run's start: enough for the topology to commit, little to drain before the first step. */
    private static final long STEPS_START_BACKLOG = 500;

    private final PaperCluster cluster;
    private final PaperOptions options;
    private final Path whaleHome;
    private final Path feedJar;

    PaperRun(PaperCluster cluster, PaperOptions options, Path whaleHome, Path feedJar) {
        this.cluster = cluster;
        this.options = options;
        this.whaleHome = whaleHome;
        this.feedJar = feedJar;
    }

    /**
     * @param data       the generated records the feed produces
     * @param commonRate the common phase's rate (negative: that share of the capacity; see {@link FeedSchedule})
     */
    PaperResult run(PaperPoint point, Path data, double commonRate) throws IOException, InterruptedException {
        return run(point, "", List.of(), data, commonRate);
    }

    /**
     * A run with {@code settings} ({@code KEY=VALUE}) on top of its system's, as topology {@code <point><suffix>}: a point of
     * a {@link PaperSweep}.
     */
    PaperResult run(PaperPoint point, String suffix, List<String> settings, Path data, double commonRate)
        throws IOException, InterruptedException {
        String name = point.name() + suffix;
        Followed f = follow(name, point, settings, data, commonRate, KafkaFeed.NO_STEPS);
        if (f.capacity() == null) {
            throw new IllegalStateException(name + ": the feed finished without a capacity window; see " + f.runDir());
        }
        List<List<WorkerCounterLog.Report>> reports = SourceHost.workerReports(cluster.dir().resolve("logs"), name);
        return result(point, name, f.started(), f.done(), f.capacity(), f.sourceHost(), f.sendPath(), ReporterLines.read(f.report()),
            MulticastCounters.of(reports), WorkerLosses.of(reports), f.jit());
    }

    /**
     * The rate-step run of Figs. 23–24 (topology {@code <point>-steps}): the feed offers {@code steps}; returns the
     * reporter's intervals over them as samples (with the machine's busy cores and the source host's link, read
     * every second), the steps and the source worker's tree switches and waterline crossings, each step's response, and
     * the results in the reporter's 100-ms bins.
     */
    RateStepRun runSteps(PaperPoint point, String label, Path data, RateSchedule steps) throws IOException, InterruptedException {
        String name = point.name() + "-steps";
        Followed f = follow(name, point, List.of(), data, 0, steps.toString());
        List<FeedSchedule.Window> windows = JSON.readerForListOf(FeedSchedule.Window.class)
            .<List<FeedSchedule.Window>>readValue(f.done().get("windows")).stream().filter(w -> w.phase() == FeedSchedule.Phase.STEPS).toList();
        if (windows.isEmpty()) {
            throw new IllegalStateException(name + ": the feed finished without a rate step; see " + f.runDir());
        }
        List<ScheduleEvent> events = new ArrayList<>();
        for (int i = 0; i < windows.size(); i++) {
            events.add(ScheduleEvent.step(windows.get(i).startMillis(), i, windows.size(), windows.get(i).ratePerSecond()));
        }
        long over = windows.get(windows.size() - 1).endMillis();
        events.add(ScheduleEvent.over(over));
        long origin = windows.get(0).startMillis();
        ScheduleEvent.read(SourceHost.log(cluster.dir().resolve("logs"), name, point.app().broadcastComponent())).stream()
            .filter(e -> e.epochMillis() >= origin && e.epochMillis() <= over).forEach(events::add);
        events.sort(Comparator.comparingLong(ScheduleEvent::epochMillis));
        List<RateStepSample> samples = new ArrayList<>();
        List<ReporterLines.Interval> intervals = ReporterLines.read(f.report()).intervals();
        for (int i = 1; i < intervals.size(); i++) {
            ReporterLines.Interval in = intervals.get(i);
            long from = intervals.get(i - 1).endMillis();
            long middle = (from + in.endMillis()) / 2;
            if (middle < origin || middle > over) {
                continue;
            }
            double offered = windows.stream().filter(w -> w.startMillis() <= middle).reduce((a, b) -> b).orElseThrow().ratePerSecond();
            Histogram latency = in.latency();
            boolean any = latency.getTotalCount() > 0;
            Use use = f.use().stream().min(Comparator.comparingLong(u -> Math.abs(u.middleMillis() - middle))).orElse(Use.NONE);
            samples.add(new RateStepSample((middle - origin) / 1e3, offered, latency.getTotalCount() * 1e3 / Math.max(1, in.endMillis() - from),
                any ? latency.getValueAtPercentile(50) : 0, any ? latency.getValueAtPercentile(99) : 0, use.coresBusy(), use.sourceLinkMbit(),
                use.sourceHostCores(), use.hostCores()));
        }
        List<RateStepBin> bins = intervals.stream().flatMap(in -> in.bins().stream())
            .filter(b -> b.startMillis() >= origin && b.startMillis() + b.millis() <= over)
            .map(b -> new RateStepBin((b.startMillis() - origin) / 1e3, b.results() * 1e3 / b.millis(),
                b.results() == 0 ? Double.NaN : (double) b.latencySumMillis() / b.results()))
            .toList();
        return RateStepRun.of(name, label, steps.toString(), samples, events, bins);
    }

    /** What following a run gave: its capacity window (null without one), the feed's last event and the second-by-second use. */
    private record Followed(String started, Path runDir, Path report, JsonNode done, Window capacity, int sourceHost,
                            SendPathSamples sendPath, List<Use> use, JitWatch.Warmed jit) {
    }

    /**
     * The machine's busy cores, what the source host sent (Mbit/s) and, with {@code --host-cpus}, the cores it and every
     * host used, over about a second around {@code middleMillis}.
     */
    private record Use(long middleMillis, double coresBusy, double sourceLinkMbit, double sourceHostCores, List<Double> hostCores) {
        static final Use NONE = new Use(0, Double.NaN, Double.NaN, Double.NaN, List.of());
    }

    private Followed follow(String name, PaperPoint point, List<String> settings, Path data, double commonRate, String rateSteps)
        throws IOException, InterruptedException {
        String started = Instant.now().toString();
        boolean steps = !rateSteps.equals(KafkaFeed.NO_STEPS);
        Path runDir = options.out().resolve("runs").resolve(name);
        FileUtils.deleteDirectory(runDir.toFile());
        Files.createDirectories(runDir);
        Path events = runDir.resolve("feed-events.jsonl");
        Path report = runDir.resolve("reporter.jsonl");
        Path release = runDir.resolve("links-shaped");
        List<String> conf = List.of("--config", cluster.conf().toString());
        cluster.session().whaleQuietly(concat(conf, List.of("kill", name, "-w", "1")));
        Process feed = new ProcessBuilder(cluster.inHost0(feedCommand(name, point, data, commonRate, rateSteps, events, release, report)))
            .redirectErrorStream(true).redirectOutput(runDir.resolve("feed.log").toFile()).start();
        Set<Long> workers = Set.of();
        try {
            List<String> submit = new ArrayList<>(conf);
            submit.addAll(point.system().overrides());
            if (point.system().whale()) {
                submit.addAll(List.of("-c", "whale.transport=" + point.system().transportOr(BenchSystem.DEFAULT_TRANSPORT), "-c",
                    MulticastCounters.reportersSetting(cluster.conf(),
                        MulticastCounters.reportSeconds(options.measureSeconds(), steps))));
            } else {
                // Storm's progressive wait without its park level, Whale's shipped wait until 2026-12-01 (now it ships
                // io.whale.executor.PublishWait, which stock Storm lacks): at Storm's default its idle executors spin in
                // parkNanos and on two cores take the CPU from the busy ones (issue 3's benchmark measured it), which a
                // machine of the paper's would not show.
                submit.addAll(WaitSetting.NO_PARK_LEVEL.overrides());
            }
            options.settings().forEach(s -> submit.addAll(List.of("-c", s)));
            settings.forEach(s -> submit.addAll(List.of("-c", s)));
            submit.addAll(List.of("-c", ThroughputLatencyReporter.REPORT_FILE_KEY + "=" + report, "jar",
                point.app().jar(whaleHome).toString(), point.app().mainClass()));
            submit.addAll(point.app().mainArgs(cluster.bootstrap(), name, name, point.matchers(), point.workers()));
            cluster.shapeLinks(STARTING_LINK_MBIT);
            cluster.liftHostCpus(true);
            cluster.session().whale(submit);

            ReportFollower followed = new ReportFollower(events);
            FeedDeadline deadline = new FeedDeadline(System.nanoTime(), START_TIMEOUT.plus(jitWait()),
                FeedSchedule.longestStill(options.warmupSeconds(), options.measureSeconds(), options.stepSeconds()));
            List<HostLinks.Host> hosts = List.of();
            List<HostLinks.LinkBytes> links0 = List.of();
            List<Long> cpu0 = List.of();
            ProcFiles.MachineTicks machine0 = null;
            long links0Nanos = 0;
            Window capacity = null;
            int sourceHost = 0;
            JsonNode done = null;
            List<Use> use = new ArrayList<>();
            UseReading lastUse = null;
            HostLinks.Host source = null;
            int cores = Runtime.getRuntime().availableProcessors();
            CapacityEdges capacityEdges = new CapacityEdges();
            SourceRecording recorder = new SourceRecording(runDir);
            SendPathSamples sendPath = null;
            long openMillis = 0;
            JitWatch jitWatch = null;
            JitWatch.Warmed jit = null;
            while (done == null) {
                if (jitWatch == null && ReporterLines.read(report).results() > 0) {
                    hosts = HostLinks.of(cluster.dir());
                    workers = hosts.stream().flatMap(h -> h.workerPids().stream()).collect(Collectors.toSet());
                    jitWatch = JitWatch.of(workers, jitWait(), System.nanoTime());
                }
                if (jitWatch != null && jit == null) {
                    jit = jitWatch.poll(System.nanoTime()).orElse(null);
                }
                if (jit != null && !Files.exists(release)) {
                    System.out.println("  " + jit.describe("the first results (hosts' CPU unlimited, the feed's backlog standing)"));
                    sourceHost = SourceHost.of(cluster.dir().resolve("logs"), name, point.app().broadcastComponent());
                    cluster.shapeLinks(options.linkMbit());
                    cluster.liftHostCpus(false);
                    if (!steps) {
                        // before the feed is released, so that the recording covers the capacity phase whole however
                        // long jcmd takes on the loaded machine (12 s once in CI), and nothing below waits for jcmd
                        int at = sourceHost;
                        recorder.start(hosts.stream().filter(h -> h.host() == at).flatMap(h -> h.workerPids().stream()).toList());
                    }
                    Files.createFile(release);
                    deadline.released(System.nanoTime());
                }
                Optional<String> overdue = deadline.passed(System.nanoTime());
                if (overdue.isPresent()) {
                    throw new IllegalStateException(name + ": " + overdue.get() + "; see " + runDir);
                }
                if (!feed.isAlive() && feed.exitValue() != 0) {
                    throw new IllegalStateException(name + ": the feed exited with " + feed.exitValue() + "; see " + runDir.resolve("feed.log")
                        + WorkerDeath.of(cluster.dir().resolve("logs"), name).map(death -> "; a worker died: " + death).orElse(""));
                }
                for (JsonNode e : followed.newLines()) {
                    String phase = e.get("phase").asText();
                    deadline.moved(System.nanoTime(), phase);
                    CapacityEdges.Edge edge = capacityEdges.of(e);
                    if (edge == CapacityEdges.Edge.OPENS) {
                        openMillis = System.currentTimeMillis();
                        links0 = HostLinks.read(hosts);
                        cpu0 = HostLinks.cpuNanos(hosts);
                        links0Nanos = System.nanoTime();
                        machine0 = ProcFiles.machineTicks();
                    } else if (edge == CapacityEdges.Edge.CLOSES) {
                        double seconds = (System.nanoTime() - links0Nanos) / 1e9;
                        capacity = new Window(HostLinks.between(links0, HostLinks.read(hosts)), seconds,
                            ProcFiles.machineTicks().coresBusySince(machine0, cores), HostLinks.coresBetween(cpu0, HostLinks.cpuNanos(hosts), seconds));
                        long closeMillis = System.currentTimeMillis();
                        List<Path> recordings = recorder.stop();
                        recorder.problems().forEach(p -> System.out.println("  " + name + ": no send-path figures (Figs. 25-26): " + p));
                        sendPath = recordings.isEmpty() ? null
                            : SendPathSamples.read(recordings, point.app().broadcastComponent(), SourceRecording.PERIOD, openMillis, closeMillis);
                    } else if (phase.equals(FeedSchedule.Phase.STEPS.label()) && lastUse == null) {
                        int at = sourceHost;
                        source = hosts.stream().filter(h -> h.host() == at).findFirst().orElseThrow();
                        lastUse = UseReading.now(source, hosts);
                    } else if (phase.equals("done") && e.has("windows")) {
                        done = e;
                    }
                }
                if (lastUse != null && done == null && System.currentTimeMillis() - lastUse.millis() >= 1_000) {
                    UseReading now = UseReading.now(source, hosts);
                    use.add(now.since(lastUse, cores, sourceHost));
                    lastUse = now;
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
            Optional<String> relaunched = WorkerLaunches.again(cluster.dir().resolve("logs"), name, point.workers());
            if (relaunched.isPresent()) {
                throw new IllegalStateException(name + ": " + relaunched.get());
            }
            return new Followed(started, runDir, report, done, capacity, sourceHost, sendPath, use, jit);
        } finally {
            feed.destroy();
            if (!feed.waitFor(30, TimeUnit.SECONDS)) {
                feed.destroyForcibly();
            }
            cluster.session().whaleQuietly(concat(conf, List.of("kill", name, "-w", "1")));
            WorkerProcesses.awaitGone(workers);
        }
    }

    /** The machine's CPU ticks, the source host's link counters and every host's CPU time (with groups) at one instant. */
    private record UseReading(long millis, ProcFiles.MachineTicks ticks, HostLinks.LinkBytes link, List<Long> hostCpuNanos) {
        static UseReading now(HostLinks.Host source, List<HostLinks.Host> hosts) throws IOException, InterruptedException {
            return new UseReading(System.currentTimeMillis(), ProcFiles.machineTicks(), HostLinks.read(List.of(source)).get(0),
                HostLinks.cpuNanos(hosts));
        }

        Use since(UseReading earlier, int cores, int sourceHost) {
            long elapsed = Math.max(1, millis - earlier.millis);
            List<Double> hostCores = HostLinks.coresBetween(earlier.hostCpuNanos, hostCpuNanos, elapsed / 1e3);
            return new Use((millis + earlier.millis) / 2, ticks.coresBusySince(earlier.ticks, cores),
                (link.txBytes() - earlier.link.txBytes()) * 8e-3 / elapsed,
                sourceHost < hostCores.size() ? hostCores.get(sourceHost) : Double.NaN, hostCores);
        }
    }

    /**
     * What went over every host's link, the machine's busy cores and (with {@code --host-cpus}) the cores each host
     * used during the capacity window, as the driver saw it: between its own two readings, {@code seconds} apart (on a
     * busy machine it sees the feed's events late, so its window is not quite the feed's).
     */
    private record Window(List<HostLinks.LinkBytes> links, double seconds, double coresBusy, List<Double> hostCores) {
    }

    private PaperResult result(PaperPoint point, String name, String started, JsonNode done, Window capacity, int sourceHost,
                               SendPathSamples sendPath, ReporterLines reporter, MulticastCounters multicasts,
                               Map<String, Long> workerLosses, JitWatch.Warmed jit) throws IOException {
        FeedSchedule.Window capacityWindow = null;
        List<PhaseResult> search = new ArrayList<>();
        PhaseResult common = null;
        for (FeedSchedule.Window w : JSON.readerForListOf(FeedSchedule.Window.class).<List<FeedSchedule.Window>>readValue(done.get("windows"))) {
            switch (w.phase()) {
                case CAPACITY -> capacityWindow = w;
                case SEARCH -> search.add(phase(w, reporter, multicasts));
                case COMMON -> common = phase(w, reporter, multicasts);
                default -> {
                }
            }
        }
        if (capacityWindow == null) {
            throw new IllegalStateException(name + ": no capacity window in the feed's last event");
        }
        double perSecond = capacityWindow.consumedPerSecond();
        // NaN, not 0, when the source host's link was not read or nothing was drained: Figs. 27-28 plot these
        double sourceTx = capacity.links().stream().filter(l -> l.host() == sourceHost).mapToDouble(HostLinks.LinkBytes::txBytes)
            .findFirst().orElse(Double.NaN);
        return new PaperResult(point.app().option(), point.system().option(), point.matchers(), point.workers(), point.repeat(),
            started, perSecond, capacity.coresBusy(), sourceTx * 8e-6 / capacity.seconds(),
            perSecond == 0 ? Double.NaN : sourceTx * 10_000.0 / (perSecond * capacity.seconds()),
            sendPath == null || perSecond == 0 ? Double.NaN : sendPath.sendMillis() * 1e3 / (perSecond * capacity.seconds()),
            sendPath == null ? Double.NaN : sendPath.serializationPercent(), sourceHost, search, common, done.get("dataPasses").asLong(),
            capacity.hostCores(), capacity.links().stream().map(l -> l.txBytes() * 8e-6 / capacity.seconds()).toList(),
            capacity.links().stream().map(l -> l.rxBytes() * 8e-6 / capacity.seconds()).toList(), workerLosses, jit);
    }

    /**
     * A paced window's figures, as the feed's schedule computes them and judged it, and the reporter's latency over it
     * (read again now: the lines of the window's last second may have come after the feed judged it), and the multicast
     * latency over it.
     */
    private static PhaseResult phase(FeedSchedule.Window w, ReporterLines reporter, MulticastCounters multicasts) {
        Histogram latency = reporter.between(w.startMillis(), w.endMillis());
        return new PhaseResult(w.ratePerSecond(), w.offeredPerSecond(), w.consumedPerSecond(), w.backlogGrowthPerSecond(),
            latency.getTotalCount() == 0 ? Double.NaN : latency.getMean(), latency.getValueAtPercentile(50),
            latency.getValueAtPercentile(99), latency.getTotalCount(), w.keptUp(), multicasts.meanMillis(w.startMillis(), w.endMillis()));
    }

    private List<String> feedCommand(String name, PaperPoint point, Path data, double commonRate, String rateSteps, Path events,
                                     Path release, Path report) {
        long backlog = rateSteps.equals(KafkaFeed.NO_STEPS) ? BASE_BACKLOG : STEPS_START_BACKLOG;
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx192m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-cp", whaleHome.resolve("lib-tools") + "/*:" + feedJar, KafkaFeed.class.getName(),
            cluster.bootstrap(), name, point.app().group(name), data.toString(),
            Integer.toString(point.app().keyColumn()), Long.toString(backlog), Long.toString(options.warmupSeconds()),
            Long.toString(options.measureSeconds()), Integer.toString(options.probes()), Double.toString(options.p99BoundMillis()),
            Double.toString(commonRate), Long.toString(START_TIMEOUT.plus(jitWait()).toSeconds()), events.toString(), release.toString(),
            report.toString(), rateSteps, options.atMostOnce() ? point.app().sinkProgress() : KafkaFeed.PROGRESS_COMMITTED);
    }

    /** How long a run waits at most for its workers' JIT before it measures ({@link JitWatch}). */
    private Duration jitWait() {
        return options.quick() ? QUICK_JIT_WAIT : JitQuiet.MAX_WAIT;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
