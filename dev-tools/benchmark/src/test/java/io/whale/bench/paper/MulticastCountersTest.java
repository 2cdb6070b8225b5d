package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MulticastCountersTest {
    @Test
    void shouldAverageWhatEveryWorkersCountersGrewByOverTheWindow() {
        MulticastCounters counters = new MulticastCounters(List.of(
            List.of(new MulticastCounters.Sample(1_000, 10, 100_000), new MulticastCounters.Sample(2_000, 20, 300_000),
                new MulticastCounters.Sample(3_000, 30, 500_000), new MulticastCounters.Sample(4_000, 40, 900_000)),
            List.of(new MulticastCounters.Sample(1_500, 5, 0), new MulticastCounters.Sample(3_500, 15, 400_000))));

        // worker 1: reports at 1 s and 3 s, 20 multicasts in 400 ms; worker 2: its first report in the window is its last
        assertEquals(20.0, counters.meanMillis(1_200, 3_200), 1e-9);
        // a window opening before a worker's first report counts from that report, not from the worker's start
        assertEquals((800 + 400) / 40.0, counters.meanMillis(500, 4_500), 1e-9);
    }

    @Test
    void shouldBeNaNWhenNoMulticastWasTimed() {
        assertTrue(Double.isNaN(new MulticastCounters(List.of(List.of())).meanMillis(0, 10_000)));
        MulticastCounters idle = new MulticastCounters(List.of(List.of(new MulticastCounters.Sample(1_000, 7, 70_000),
            new MulticastCounters.Sample(2_000, 7, 70_000))));
        assertTrue(Double.isNaN(idle.meanMillis(1_000, 2_000)));
    }

    @Test
    void shouldAddTheCounterReporterToTheReportersTheClusterGivesEveryTopology(@TempDir Path dir) throws Exception {
        Path conf = dir.resolve("storm.yaml");
        Files.writeString(conf, "topology.metrics.reporters:\n  - class: \"io.whale.metrics.prometheus.PrometheusReporter\"\n"
            + "    port: \"9250-9260\"\n");

        String setting = MulticastCounters.reportersSetting(conf, 5);
        assertTrue(setting.startsWith("topology.metrics.reporters="), setting);
        JsonNode reporters = new ObjectMapper().readTree(setting.substring(setting.indexOf('=') + 1));
        assertEquals(2, reporters.size());
        assertEquals("io.whale.metrics.prometheus.PrometheusReporter", reporters.get(0).path("class").asText());
        assertEquals("org.apache.storm.metrics2.reporters.ConsoleStormReporter", reporters.get(1).path("class").asText());
        assertEquals(5, reporters.get(1).path("report.period").asInt());
    }

    @Test
    void shouldReportFourTimesAPhaseAtLeastWithAPeriodOfFiveSecondsAtMostAndEverySecondInARateStepRun() {
        assertEquals(5, MulticastCounters.reportSeconds(20, false), "a full run's 20-s phases");
        assertEquals(5, MulticastCounters.reportSeconds(60, false));
        assertEquals(1, MulticastCounters.reportSeconds(5, false), "the quick run's 5-s phases");
        assertEquals(2, MulticastCounters.reportSeconds(10, false));
        assertEquals(1, MulticastCounters.reportSeconds(1, false));
        assertEquals(1, MulticastCounters.reportSeconds(20, true), "a step's first switch after it is timed");
    }

    @Test
    void shouldPrintTheTransportsCountersAndTheTreesEventsBesideTheMulticastOnesAndNothingElse() {
        String worker = "storm.worker.paper-run-3-1764000000.10.77.0.3.__system.-1.6701-";
        for (String name : List.of(MulticastCounters.DELIVERED, MulticastCounters.MICROS, "woc-window-in-flight-to-x-10.77.0.2-6700",
            "woc-tuples-dropped-stalled", "woc-tuples-sent-stalled", "relay-tuples-lost", "relay-tuples-resent", "relay-tuples-sent-stalled", "relay-duplicates-dropped", "woc-bytes-sent-to-x-10.77.0.2-6700", "rdma-messages-sent", "rdma-messages-received", "rdma-messages-dropped",
            "relay-switches-up", "relay-switches-forced", "relay-last-switch-at-ms", "relay-last-switch-drain-ms", "relay-above-waterline",
            "relay-last-under-waterline-at-ms")) {
            assertTrue((worker + name).matches(MulticastCounters.EXPRESSION), name);
        }
        assertFalse((worker + "rdma-bytes-sent").matches(MulticastCounters.EXPRESSION));
        assertFalse((worker + "relay-input-rate").matches(MulticastCounters.EXPRESSION));
        assertFalse("storm.worker.paper-run-3-1764000000.10.77.0.3.matcher.7.6701-__emit-count-default".matches(MulticastCounters.EXPRESSION));
    }

    @Test
    void shouldReadTheCountersTheConsoleReporterPrintedIntoTheTopologysWorkerLogs(@TempDir Path logs) throws Exception {
        Path log = logs.resolve("supervisor-2/workers-artifacts/paper-run-3-1764000000/6701/worker.log");
        Files.createDirectories(log.getParent());
        String prefix = "storm.worker.paper-run-3-1764000000.10.77.0.3.__system.-1.6701-";
        Files.writeString(log, report("2026-11-24 10:00:01.000", prefix, 10, 50_000) + report("2026-11-24 10:00:02.000", prefix, 30, 250_000));
        Path other = logs.resolve("supervisor-1/workers-artifacts/paper-run-steps-4-1764000100/6700/worker.log");
        Files.createDirectories(other.getParent());
        Files.writeString(other, report("2026-11-24 10:00:01.500", prefix, 1_000, 1_000_000_000));

        MulticastCounters counters = MulticastCounters.of(SourceHost.workerReports(logs, "paper-run"));
        long from = LocalDateTime.parse("2026-11-24T10:00:01").atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
        assertEquals(10.0, counters.meanMillis(from, from + 1_500), 1e-9, "20 multicasts in 200 ms; the steps run is another topology");
    }

    /** A report of the two counters as Storm's console reporter prints it into worker.log (the worker's log4j2 pattern). */
    private static String report(String time, String prefix, long delivered, long micros) {
        return line(time, "11/24/26, 10:00:01 AM ============================================================") + line(time, "")
            + line(time, "-- Counters --------------------------------------------------------------------")
            + line(time, prefix + MulticastCounters.DELIVERED) + line(time, "             count = " + delivered)
            + line(time, prefix + MulticastCounters.MICROS) + line(time, "             count = " + micros)
            + line(time, "") + line(time, "");
    }

    private static String line(String time, String message) {
        return time + " c.c.m.ConsoleReporter metrics-console-reporter-1-thread-1 [INFO] " + message + "\n";
    }
}
