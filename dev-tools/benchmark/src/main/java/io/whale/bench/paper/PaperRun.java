package io.whale.bench.paper;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.bench.HostLinks;
import io.whale.bench.ProcFiles;
import io.whale.bench.WorkerProcesses;
import io.whale.examples.demo.ReportFollower;
import io.whale.examples.report.ThroughputLatencyReporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.apache.commons.io.FileUtils;

/**
 * Runs one {@link PaperPoint}: starts its {@link KafkaFeed} in host 0's namespace of its system's cluster, submits
 * the application with {@code whale jar} (the reporter appending to a file of the run; the links opened while it
 * starts; once its sink reports results it finds the hosts, the workers and the broadcast source's host, shapes the
 * links again and only then releases the feed into its capacity phase), follows the feed's events —
 * at the capacity window's edges it reads every host's link counters and the machine's CPU ticks — and when the feed
 * is done merges the reporter's histograms over each paced window. Kills the topology and waits until its workers
 * are gone, and stops the feed, also when the run fails.
 */
final class PaperRun {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    /** The links' rate while a topology starts: its jar reaches every Supervisor in a second, not in minutes. */
    static final int STARTING_LINK_MBIT = 10_000;
    /** Records kept waiting beyond the spout's max pending (2000 in the examples) and one poll (500). */
    private static final long BASE_BACKLOG = 3_000;

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
        String started = Instant.now().toString();
        String name = point.name();
        Path runDir = options.out().resolve("runs").resolve(name);
        FileUtils.deleteDirectory(runDir.toFile());
        Files.createDirectories(runDir);
        Path events = runDir.resolve("feed-events.jsonl");
        Path report = runDir.resolve("reporter.jsonl");
        Path release = runDir.resolve("links-shaped");
        List<String> conf = List.of("--config", cluster.conf().toString());
        cluster.session().whaleQuietly(concat(conf, List.of("kill", name, "-w", "1")));
        Process feed = new ProcessBuilder(cluster.inHost0(feedCommand(point, data, commonRate, events, release, report)))
            .redirectErrorStream(true).redirectOutput(runDir.resolve("feed.log").toFile()).start();
        Set<Long> workers = Set.of();
        try {
            List<String> submit = new ArrayList<>(conf);
            submit.addAll(point.system().overrides());
            options.settings().forEach(s -> submit.addAll(List.of("-c", s)));
            submit.addAll(List.of("-c", ThroughputLatencyReporter.REPORT_FILE_KEY + "=" + report, "jar",
                point.app().jar(whaleHome).toString(), point.app().mainClass()));
            submit.addAll(point.app().mainArgs(cluster.bootstrap(), name, name, point.matchers(), point.workers()));
            cluster.shapeLinks(STARTING_LINK_MBIT);
            cluster.session().whale(submit);

            ReportFollower followed = new ReportFollower(events);
            long deadline = System.nanoTime() + START_TIMEOUT.toNanos()
                + TimeUnit.SECONDS.toNanos((3L + 2L * options.probes()) * (options.warmupSeconds() + options.measureSeconds()) + 60);
            List<HostLinks.Host> hosts = List.of();
            List<HostLinks.LinkBytes> links0 = List.of();
            ProcFiles.MachineTicks machine0 = null;
            long links0Nanos = 0;
            Window capacity = null;
            int sourceHost = 0;
            JsonNode done = null;
            while (done == null) {
                if (!Files.exists(release) && ReporterLines.read(report).results() > 0) {
                    hosts = HostLinks.of(cluster.whaleBin(), cluster.dir());
                    workers = hosts.stream().flatMap(h -> h.workerPids().stream()).collect(Collectors.toSet());
                    sourceHost = SourceHost.of(cluster.dir().resolve("logs"), name, point.app().broadcastComponent());
                    cluster.shapeLinks(options.linkMbit());
                    Files.createFile(release);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(name + ": the feed did not finish in time; see " + runDir);
                }
                if (!feed.isAlive() && feed.exitValue() != 0) {
                    throw new IllegalStateException(name + ": the feed exited with " + feed.exitValue() + "; see " + runDir.resolve("feed.log"));
                }
                for (JsonNode e : followed.newLines()) {
                    String phase = e.get("phase").asText();
                    if (phase.equals("capacity") && e.get("measuring").asBoolean()) {
                        links0 = HostLinks.read(hosts);
                        links0Nanos = System.nanoTime();
                        machine0 = ProcFiles.machineTicks();
                    } else if (phase.equals("drain") && machine0 != null) {
                        capacity = new Window(HostLinks.between(links0, HostLinks.read(hosts)), (System.nanoTime() - links0Nanos) / 1e9,
                            ProcFiles.machineTicks().coresBusySince(machine0, Runtime.getRuntime().availableProcessors()));
                    } else if (phase.equals("done") && e.has("windows")) {
                        done = e;
                    }
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
            if (capacity == null) {
                throw new IllegalStateException(name + ": the feed finished without a capacity window; see " + events);
            }
            return result(point, started, done, capacity, sourceHost, ReporterLines.read(report));
        } finally {
            feed.destroy();
            if (!feed.waitFor(30, TimeUnit.SECONDS)) {
                feed.destroyForcibly();
            }
            cluster.session().whaleQuietly(concat(conf, List.of("kill", name, "-w", "1")));
            WorkerProcesses.awaitGone(workers);
        }
    }

    /**
     * What went over every host's link and the machine's busy cores during the capacity window, as the driver saw it:
     * between its own two readings, {@code seconds} apart (on a busy machine it sees the feed's events late, so its
     * window is not quite the feed's).
     */
    private record Window(List<HostLinks.LinkBytes> links, double seconds, double coresBusy) {
    }

    private PaperResult result(PaperPoint point, String started, JsonNode done, Window capacity, int sourceHost,
                               ReporterLines reporter) throws IOException {
        FeedSchedule.Window capacityWindow = null;
        List<PhaseResult> search = new ArrayList<>();
        PhaseResult common = null;
        for (FeedSchedule.Window w : JSON.readerForListOf(FeedSchedule.Window.class).<List<FeedSchedule.Window>>readValue(done.get("windows"))) {
            switch (w.phase()) {
                case CAPACITY -> capacityWindow = w;
                case SEARCH -> search.add(phase(w, reporter));
                case COMMON -> common = phase(w, reporter);
                default -> {
                }
            }
        }
        if (capacityWindow == null) {
            throw new IllegalStateException(point.name() + ": no capacity window in the feed's last event");
        }
        double perSecond = capacityWindow.consumedPerSecond();
        // NaN, not 0, when the source host's link was not read or nothing was drained: Figs. 27-28 plot these
        double sourceTx = capacity.links().stream().filter(l -> l.host() == sourceHost).mapToDouble(HostLinks.LinkBytes::txBytes)
            .findFirst().orElse(Double.NaN);
        return new PaperResult(point.app().option(), point.system().option(), point.matchers(), point.workers(), point.repeat(),
            started, perSecond, capacity.coresBusy(), sourceTx * 8e-6 / capacity.seconds(),
            perSecond == 0 ? Double.NaN : sourceTx * 10_000.0 / (perSecond * capacity.seconds()), sourceHost, search, common,
            done.get("dataPasses").asLong());
    }

    /**
     * A paced window's figures, as the feed's schedule computes them and judged it, and the reporter's latency over it
     * (read again now: the lines of the window's last second may have come after the feed judged it).
     */
    private static PhaseResult phase(FeedSchedule.Window w, ReporterLines reporter) {
        Histogram latency = reporter.between(w.startMillis(), w.endMillis());
        return new PhaseResult(w.ratePerSecond(), w.offeredPerSecond(), w.consumedPerSecond(), w.backlogGrowthPerSecond(),
            latency.getTotalCount() == 0 ? Double.NaN : latency.getMean(), latency.getValueAtPercentile(50),
            latency.getValueAtPercentile(99), latency.getTotalCount(), w.keptUp());
    }

    private List<String> feedCommand(PaperPoint point, Path data, double commonRate, Path events, Path release, Path report) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx192m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-cp", whaleHome.resolve("lib-tools") + "/*:" + feedJar, KafkaFeed.class.getName(),
            cluster.bootstrap(), point.name(), point.app().group(point.name()), data.toString(),
            Integer.toString(point.app().keyColumn()), Long.toString(BASE_BACKLOG), Long.toString(options.warmupSeconds()),
            Long.toString(options.measureSeconds()), Integer.toString(options.probes()), Double.toString(options.p99BoundMillis()),
            Double.toString(commonRate), Long.toString(START_TIMEOUT.toSeconds()), events.toString(), release.toString(),
            report.toString());
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
