package io.whale.distribution;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.whale.bench.ScheduleEvent;
import io.whale.examples.smoke.AckingTopology;
import io.whale.examples.smoke.AppendLog;
import io.whale.examples.smoke.PropertiesReport;
import io.whale.examples.smoke.RecordingBolt;
import io.whale.examples.smoke.ReliableIdSpout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Live reshaping under a rate step on four emulated hosts with slow links ({@code local-cluster up --hosts 4
 * --link-mbit} {@value #LINK_MBIT}), {@code whale.multicast.structure: nonblocking}, d* {@code auto}, acking off: a
 * spout broadcasts ids to recording bolt tasks in four workers at {@value #LOW} ids/s, steps up to {@value #HIGH}
 * (more than the trees can carry: the source's queue grows), then back down, and stops. The source's controller must
 * scale d* down during the high step and back up to the full tree after it, the queue must end under the waterline
 * (it need not have risen above it: the controller decides on the queue's growth, and often scales down before the
 * queue reaches the waterline), and every task must receive every id exactly once and in order across the switches.
 * The switches and waterline crossings are read from the controller's metrics ({@code relay-*}, printed every second
 * by the console reporter), never from its log lines.
 */
class RelayRateStepClusterIT {
    private static final String NAME = "rate-step";
    private static final int HOSTS = 4;
    private static final int TASKS = 8;
    private static final int LINK_MBIT = 1;
    private static final int LOW = 150;
    private static final int HIGH = 1_500;
    private static final int STEP_SECS = 12;
    /** More than the schedule lets out: the spout stops when it ends. */
    private static final int IDS = 1_000_000;
    /** The controller's events and the counters checked, every second into worker.log. */
    private static final String TREE_METRICS = "topology.metrics.reporters=[{\"class\":"
        + "\"org.apache.storm.metrics2.reporters.ConsoleStormReporter\",\"report.period\":1,\"report.period.units\":\"SECONDS\","
        + "\"filter\":{\"class\":\"org.apache.storm.metrics2.filters.RegexFilter\",\"expression\":\".*__system[.]-1[.][0-9]+-(relay|woc)-.*\"}}]";

    @Test
    void shouldScaleDownOnARateStepUpAndBackUpAfterItLosingAndReorderingNothing() throws Exception {
        assumeTrue(EmulatedHosts.available(), "needs root for network namespaces (ip netns, bridges, veth links)");
        Path dir = Path.of("target/relay-rate-step-cluster").toAbsolutePath();
        Path reports = dir.resolve("report");
        try (PrivateLocalCluster cluster = PrivateLocalCluster.upHosts(dir, HOSTS, LINK_MBIT, List.of())) {
            String schedule = LOW + ":" + STEP_SECS + "," + HIGH + ":" + STEP_SECS + "," + LOW + ":" + STEP_SECS;
            cluster.submit(List.of(TREE_METRICS, "whale.woc.enabled=true", "whale.multicast.structure=nonblocking",
                    "topology.acker.executors=0"),
                AckingTopology.class.getName(), List.of("--name", NAME, "--ids", String.valueOf(IDS), "--rate", schedule,
                    "--parallelism", String.valueOf(TASKS), "--workers", String.valueOf(HOSTS), "--report-dir", reports.toString()));

            await("the schedule over, every task has every id").atMost(Duration.ofSeconds(3L * STEP_SECS + 180))
                .pollInterval(Duration.ofSeconds(2)).until(() -> {
                    if (!Files.exists(reports.resolve(ReliableIdSpout.REPORT))) {
                        return false;
                    }
                    Properties spout = spout(reports);
                    return Boolean.parseBoolean(spout.getProperty("schedule.over")) && receivedCounts(reports).size() == TASKS
                        && receivedCounts(reports).values().stream().allMatch(n -> n >= Integer.parseInt(spout.getProperty("emitted")));
                });
            int emitted = Integer.parseInt(spout(reports).getProperty("emitted"));
            List<Integer> expected = IntStream.range(0, emitted).boxed().toList();
            for (int task : receivedCounts(reports).keySet()) {
                List<Integer> received = AppendLog.read(RecordingBolt.receivedLog(reports, task)).stream().map(Integer::valueOf).toList();
                assertTrue(received.equals(expected), "task " + task + " did not receive every id once and in order: "
                    + firstDifference(received, expected));
            }
            System.out.println("every task received the " + emitted + " ids once and in order");

            long[] steps = Arrays.stream(spout(reports).getProperty("steps.started.ms")
                .split(",")).mapToLong(Long::parseLong).toArray();
            long up = steps[1];
            long down = steps[2];
            WorkerLogs logs = cluster.workerLogs(NAME);
            List<ScheduleEvent> events = logs.treeEvents();
            events.forEach(e -> System.out.printf("%+8d ms from the step up: %s %s%n", e.epochMillis() - up, e.kind(), e.text()));
            List<ScheduleEvent> switches = events.stream().filter(e -> e.kind() == ScheduleEvent.Kind.SWITCH).toList();

            ScheduleEvent scaledDown = switches.stream().filter(s -> s.epochMillis() >= up && s.epochMillis() < down
                    && s.switched().reason().equals("SCALE_DOWN")).findFirst()
                .orElseThrow(() -> new AssertionError("no scale-down during the high step"));
            ScheduleEvent lastCrossing = events.stream().filter(e -> e.epochMillis() >= up && (e.kind() == ScheduleEvent.Kind.ABOVE_WATERLINE
                || e.kind() == ScheduleEvent.Kind.UNDER_WATERLINE)).reduce((earlier, later) -> later).orElse(null);
            assertTrue(lastCrossing == null || lastCrossing.kind() == ScheduleEvent.Kind.UNDER_WATERLINE,
                "the queue rose above the waterline and never came back under it");
            ScheduleEvent scaledUp = switches.stream().filter(s -> s.epochMillis() >= down && s.switched().reason().equals("SCALE_UP"))
                .findFirst().orElseThrow(() -> new AssertionError("no scale-up after the step down"));
            System.out.printf("rate step up: scaled down after %d ms; %s (the step down came after %d ms); scaled up %d ms after the"
                    + " step down%n", scaledDown.epochMillis() - up, lastCrossing == null ? "the queue stayed under the waterline"
                    : "the queue was last back under the waterline " + (lastCrossing.epochMillis() - up) + " ms after the step up",
                down - up, scaledUp.epochMillis() - down);
            ScheduleEvent.Switch last = switches.get(switches.size() - 1).switched();
            assertTrue(last.to().equals("2") && last.reason().equals("SCALE_UP"), "the last switch goes back up to the full tree: " + last);
            assertTrue(logs.lastCountIfPrinted("relay-tuples-lost") <= 0, "tuples lost along the trees");
            assertEquals(0, logs.lastCount("woc-frames-malformed"));
            assertFalse(logs.contains("cannot be reached"), "a member was unreachable during the run");
        }
    }

    private static Properties spout(Path reports) {
        return PropertiesReport.read(reports.resolve(ReliableIdSpout.REPORT));
    }

    private static String firstDifference(List<Integer> received, List<Integer> expected) {
        int i = 0;
        while (i < received.size() && i < expected.size() && received.get(i).equals(expected.get(i))) {
            i++;
        }
        return received.size() + " ids, first difference at position " + i + ": "
            + received.subList(i, Math.min(received.size(), i + 5)) + " where " + expected.subList(i, Math.min(expected.size(), i + 5)) + " belong";
    }

    /** Bolt task -> how many ids its log holds. */
    private static Map<Integer, Integer> receivedCounts(Path reports) {
        if (!Files.isDirectory(reports)) {
            return Map.of();
        }
        try (Stream<Path> files = Files.list(reports)) {
            Map<Integer, Integer> counts = new TreeMap<>();
            for (Path f : files.filter(f -> f.getFileName().toString().matches("received-\\d+\\.log")).toList()) {
                String name = f.getFileName().toString();
                counts.put(Integer.parseInt(name.substring(9, name.length() - 4)), AppendLog.read(f).size());
            }
            return counts;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
