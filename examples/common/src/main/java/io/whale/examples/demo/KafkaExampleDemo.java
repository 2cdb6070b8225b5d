package io.whale.examples.demo;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.whale.examples.report.ReportSummary;
import io.whale.examples.report.ThroughputLatencyReporter;

/**
 * {@code whale demo ridehailing|stock}: brings up the local multi-process cluster and a Kafka broker,
 * generates a dataset into Kafka, submits the topology with {@code whale jar} (handing on the demo's
 * {@code -c} overrides), prints the reporter's throughput and latency as they arrive until every record
 * is processed or the duration is over, prints the summary and brings everything down (also on Ctrl-C).
 */
public final class KafkaExampleDemo {
    /** The reporter's intervals without results, after some, that mean the data is consumed. */
    private static final int IDLE_INTERVALS = 2;
    private static final long WAITING_NOTICE_SECONDS = 10;

    /** One {@code whale gen} run into Kafka: what it writes, and its arguments before {@code --bootstrap}. */
    public record Generation(String description, List<String> whaleGenArgs) {
    }

    private final DemoSession session;
    private final Path dir;
    private final String application;
    private final String resultName;
    private final Path topologyJar;
    private final Class<?> topologyMain;
    private final DemoOptions options;

    /**
     * @param application the topology's name, as its main names it by default
     * @param resultName  what the reporter counts, for the live lines ("orders dispatched", "deals")
     */
    public KafkaExampleDemo(String application, String resultName, Class<?> topologyMain, DemoOptions options) {
        this.session = DemoSession.fromWhaleCommand();
        this.dir = DemoSession.demoDir();
        this.application = application;
        this.resultName = resultName;
        this.topologyMain = topologyMain;
        this.topologyJar = jarOf(topologyMain);
        this.options = options;
    }

    /**
     * @param expectedResults how many results the dataset gives when it is known, else 0
     * @return the exit code: 0 when the topology produced results
     */
    public int run(List<Generation> dataset, long expectedResults) throws IOException, InterruptedException {
        Path kafkaDir = dir.resolve("kafka");
        // under data/, which the daemons' user owns when they run as another one (local-cluster up --user)
        Path report = dir.resolve("data").resolve(application + "-report.jsonl");
        List<String> clusterConf = List.of("--config", dir.resolve("conf/storm.yaml").toString());
        try (session) {
            Files.deleteIfExists(report);
            session.onClose("stopping the local cluster", () -> session.whale(List.of("local-cluster", "down", "--dir", dir.toString())));
            DemoSession.step("starting the local cluster (ZooKeeper, Nimbus, 2 Supervisors) in " + dir);
            session.whale(List.of("local-cluster", "up", "--supervisors", "2", "--dir", dir.toString()));
            DemoSession.stepUi();

            session.onClose("stopping Kafka", () -> session.whale(List.of("kafka", "stop", "--dir", kafkaDir.toString())));
            DemoSession.step("starting Kafka on " + options.bootstrap() + " with fresh data in " + kafkaDir);
            session.whale(List.of("kafka", "stop", "--dir", kafkaDir.toString()));
            deleteTree(kafkaDir);
            session.whale(List.of("kafka", "start", "--dir", kafkaDir.toString(), "--port", Integer.toString(options.kafkaPort)));

            for (Generation generation : dataset) {
                DemoSession.step("generating " + generation.description() + " into Kafka");
                List<String> gen = new ArrayList<>(List.of("gen"));
                gen.addAll(generation.whaleGenArgs());
                gen.addAll(List.of("--bootstrap", options.bootstrap(), "--partitions", Integer.toString(options.partitions)));
                session.whale(gen);
            }

            session.onClose("killing the topology " + application,
                () -> session.whaleQuietly(concat(clusterConf, List.of("kill", application, "-w", "1"))));
            List<String> mainArgs = List.of("--bootstrap", options.bootstrap(), "--workers", Integer.toString(options.workers),
                "--matchers", Integer.toString(options.matchers), "--report-interval-s", Integer.toString(options.reportIntervalSeconds));
            DemoSession.step("submitting the " + application + " topology: " + String.join(" ", mainArgs));
            List<String> submit = new ArrayList<>(clusterConf);
            submit.addAll(DemoSession.overridesFromCommandLine());
            submit.addAll(List.of("-c", ThroughputLatencyReporter.REPORT_FILE_KEY + "=" + report));
            submit.addAll(List.of("jar", topologyJar.toString(), topologyMain.getName()));
            submit.addAll(mainArgs);
            session.whale(submit);

            DemoSession.step("following the reporter (" + report + ") for up to " + options.durationSeconds + " s");
            follow(report, expectedResults);
            return summarise(report, expectedResults);
        }
    }

    private void follow(Path report, long expectedResults) throws IOException, InterruptedException {
        ReportFollower follower = new ReportFollower(report);
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(options.durationSeconds);
        long lastNotice = 0;
        boolean seenResults = false;
        int idle = 0;
        long total = 0;
        while (System.nanoTime() < deadline && idle < IDLE_INTERVALS && (expectedResults <= 0 || total < expectedResults)) {
            TimeUnit.SECONDS.sleep(1);
            long elapsed = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            List<JsonNode> lines = follower.newLines();
            for (JsonNode line : lines) {
                long results = line.get("results").asLong();
                total = line.get("total_results").asLong();
                seenResults |= results > 0;
                idle = results == 0 && seenResults ? idle + 1 : 0;
                System.out.printf("[%3ds] %9.1f %s/s   latency p50 %5d ms  p99 %5d ms   total %d%s%n", elapsed,
                    line.get("results_per_s").asDouble(), resultName, line.get("p50_ms").asLong(), line.get("p99_ms").asLong(),
                    total, expectedResults > 0 ? "/" + expectedResults : "");
            }
            if (!seenResults && lines.isEmpty() && elapsed - lastNotice >= WAITING_NOTICE_SECONDS) {
                System.out.printf("[%3ds] waiting for the workers' first results%n", elapsed);
                lastNotice = elapsed;
            }
        }
    }

    private int summarise(Path report, long expectedResults) throws IOException {
        List<JsonNode> lines = Files.exists(report) ? ReportSummary.read(report) : List.of();
        DemoSession.step("summary");
        if (lines.isEmpty()) {
            System.out.println("no results reported; worker logs are under " + dir.resolve("logs"));
            return 1;
        }
        System.out.println(ReportSummary.summarise(lines));
        long total = lines.get(lines.size() - 1).get("total_results").asLong();
        if (expectedResults > 0) {
            System.out.printf("%d of %d %s within the demo's time%n", total, expectedResults, resultName);
        }
        return total > 0 ? 0 : 1;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static Path jarOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
