package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * End to end on real processes: {@code whale demo ridehailing} and {@code whale demo stock} bring up the
 * local cluster and a Kafka broker, generate a small dataset into Kafka, run the application on 2 workers,
 * report throughput and latency, and bring everything down — in a private network namespace.
 */
class ExampleDemosIT {
    private static final Pattern KAFKA_PID = Pattern.compile("Kafka running: pid (\\d+)");
    private static final Pattern SUMMARY = Pattern.compile("(?m)^(\\w+): (\\d+) results, ([\\d.]+) results/s mean over (\\d+) active intervals.*p50 (\\d+) ms, p99 (\\d+) ms$");
    private static final int ORDERS = 3_000;

    @BeforeEach
    void needsPrivateNetwork() {
        assumeTrue(WhaleCli.privateNetworkAvailable(), "needs root for a private network namespace (unshare --net)");
    }

    @Test
    void rideHailingDemoDispatchesEveryOrderAndStopsEverything() throws Exception {
        Path dir = Path.of("target/ridehailing-demo").toAbsolutePath();
        WhaleCli.Result run = demo(dir, List.of("-c", "ridehailing.radius.m=800", "demo", "ridehailing",
            "--drivers", "300", "--positions", "3000", "--orders", String.valueOf(ORDERS), "--duration-s", "90"));

        Matcher summary = summary(run, "ridehailing");
        assertEquals(ORDERS, Long.parseLong(summary.group(2)), "every order is dispatched once:\n" + run.output());
        assertTrue(Double.parseDouble(summary.group(3)) > 0, run.output());
        assertTrue(run.output().contains(ORDERS + " of " + ORDERS + " orders dispatched"), run.output());
        assertTrue(run.output().matches("(?s).*orders dispatched/s +latency p50 +\\d+ ms +p99 +\\d+ ms.*"), "live lines:\n" + run.output());

        List<String> report = reportLines(dir.resolve("data/ridehailing-report.jsonl"));
        assertEquals((double) ORDERS, field(report.get(report.size() - 1), "total_results"));
        assertTrue(Pattern.compile("Kafka running: pid \\d+, .*, as nobody$", Pattern.MULTILINE).matcher(run.output()).find(),
            "the broker runs as the demo's daemon user, not root:\n" + run.output());
        assertEquals("nobody", Files.getOwner(dir.resolve("kafka/kraft-logs")).getName(), "the broker's data is written as nobody");
        assertTrue(report.stream().anyMatch(l -> field(l, "results_per_s") > 0), report.toString());
        assertEverythingStopped(run, dir);
    }

    @Test
    void stockDemoSettlesDealsAndStopsEverything() throws Exception {
        Path dir = Path.of("target/stock-demo").toAbsolutePath();
        WhaleCli.Result run = demo(dir, List.of("demo", "stock", "--records", "6000", "--duration-s", "90"));

        Matcher summary = summary(run, "stock");
        assertTrue(Long.parseLong(summary.group(2)) > 0, "deals were settled:\n" + run.output());
        assertTrue(Double.parseDouble(summary.group(3)) > 0, run.output());
        List<String> report = reportLines(dir.resolve("data/stock-report.jsonl"));
        assertEquals(Long.parseLong(summary.group(2)), field(report.get(report.size() - 1), "total_results"));
        assertEverythingStopped(run, dir);
    }

    private static WhaleCli.Result demo(Path dir, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(WhaleCli.BIN.toString()));
        command.addAll(args);
        WhaleCli.Result run = WhaleCli.run(Duration.ofMinutes(5), Map.of("WHALE_DEMO_DIR", dir.toString()), command);
        System.out.println(run.output());
        assertTrue(run.output().contains("running the demo in a private network namespace"), run.output());
        assertEquals(0, run.exit(), run.output());
        return run;
    }

    private static Matcher summary(WhaleCli.Result run, String application) {
        Matcher summary = SUMMARY.matcher(run.output());
        assertTrue(summary.find(), "no summary line:\n" + run.output());
        assertEquals(application, summary.group(1));
        return summary;
    }

    /** The reporter's JSON lines, one per interval. */
    private static List<String> reportLines(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file).stream().filter(l -> !l.isBlank()).toList();
        assertFalse(lines.isEmpty(), "empty report " + file);
        return lines;
    }

    /** A numeric field of a flat JSON object such as {@code {"results":12,"results_per_s":6.0}}. */
    private static double field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":([-\\d.]+)").matcher(json);
        assertTrue(m.find(), name + " in " + json);
        return Double.parseDouble(m.group(1));
    }

    private static void assertEverythingStopped(WhaleCli.Result run, Path dir) throws IOException {
        String out = run.output();
        assertTrue(out.contains("Kafka stopped"), out);
        assertTrue(out.contains("is down"), out);
        Matcher kafka = KAFKA_PID.matcher(out);
        assertTrue(kafka.find(), out);
        long brokerPid = Long.parseLong(kafka.group(1));
        assertFalse(ProcessHandle.of(brokerPid).map(ProcessHandle::isAlive).orElse(false), "broker " + brokerPid + " outlived the demo");
        assertFalse(Files.exists(dir.resolve("kafka/broker.pid")), "the broker's pid file is gone");
        try (Stream<Path> pids = Files.list(dir.resolve("pids"))) {
            assertEquals(0, pids.count(), "every daemon was stopped by its pid");
        }
    }
}
