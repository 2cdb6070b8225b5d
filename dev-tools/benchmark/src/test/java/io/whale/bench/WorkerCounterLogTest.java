package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerCounterLogTest {
    private static final String PREFIX = "storm.worker.bench-p8-w2-woc-rdma-4-1795315184.localhost.__system.-1.16110-";

    private static String line(String time, String thread, String message) {
        return "2026-11-22 " + time + " c.c.m.ConsoleReporter " + thread + " [INFO] " + message + "\n";
    }

    /** A report as Storm's console reporter prints it into worker.log, without its end when COMPLETE is false. */
    private static String report(String time, long emits, long serializations, long framesSent, boolean complete) {
        String t = "metrics-console-reporter-1-thread-1";
        String s = line(time, t, "11/22/26, 2:40:00 AM ============================================================")
            + line(time, t, "")
            + line(time, t, "-- Counters --------------------------------------------------------------------")
            + line(time, t, PREFIX + "rdma-messages-dropped")
            + line(time, t, "             count = 0")
            + line(time, t, PREFIX + "woc-emits")
            // another thread's line in between, as happens in a busy worker
            + "2026-11-22 " + time + " o.a.s.e.Executor Thread-15-match-executor[5, 5] [INFO] something else\n"
            + line(time, t, "             count = " + emits)
            + line(time, t, PREFIX + "woc-frames-sent")
            + line(time, t, "             count = " + framesSent);
        if (!complete) {
            return s;
        }
        return s + line(time, t, PREFIX + "woc-serializations")
            + line(time, t, "             count = " + serializations)
            + line(time, t, "")
            + line(time, t, "");
    }

    @Test
    void readsEveryCompleteReportAndLeavesOutOneStillBeingWritten() {
        String log = "2026-11-22 02:39:54.296 o.a.s.d.w.Worker main [INFO] Worker core: Whale\n"
            + report("02:40:00.451", 100, 100, 100, true)
            + report("02:40:01.451", 300, 301, 302, true)
            + report("02:40:02.451", 999, 999, 999, false);

        List<WorkerCounterLog.Report> reports = WorkerCounterLog.parse(log);

        assertEquals(2, reports.size());
        assertEquals(LocalDateTime.parse("2026-11-22T02:40:01.451"), reports.get(1).time());
        assertEquals(Map.of("rdma-messages-dropped", 0L, "woc-emits", 300L, "woc-frames-sent", 302L, "woc-serializations", 301L),
            reports.get(1).counters());
    }

    @Test
    void countersOverTheWindowAreTheDifferenceOfTwoReports() {
        List<WorkerCounterLog.Report> r = WorkerCounterLog.parse(report("02:40:00.451", 100, 100, 100, true)
            + report("02:40:05.951", 1_100, 1_100, 2_100, true));

        WorkerCounters c = WorkerCounters.between(Optional.of(r.get(0)), Optional.of(r.get(1)));

        assertEquals("delta", c.mode());
        assertEquals(5.5, c.seconds(), 1e-9);
        assertEquals(1_000L, c.counters().get("woc-emits"));
        assertEquals(1.0, c.perEmittedTuple(WorkerCounters.SERIALIZATIONS), 1e-9);
        assertEquals(2.0, c.perEmittedTuple(WorkerCounters.FRAMES_SENT), 1e-9);
    }

    @Test
    void withoutAnEarlierReportTheLastValuesAreKeptAndSaidToBeCumulative() {
        WorkerCounterLog.Report only = WorkerCounterLog.parse(report("02:40:00.451", 10, 10, 20, true)).get(0);

        WorkerCounters same = WorkerCounters.between(Optional.of(only), Optional.of(only));
        WorkerCounters none = WorkerCounters.between(Optional.empty(), Optional.empty());

        assertEquals("cumulative", same.mode());
        assertEquals(10L, same.counters().get("woc-emits"));
        assertEquals(2.0, same.perEmittedTuple(WorkerCounters.FRAMES_SENT), 1e-9);
        assertEquals("none", none.mode());
        assertNull(none.perEmittedTuple(WorkerCounters.SERIALIZATIONS));
    }

    @Test
    void withoutWocEmitsThereIsNoPerTupleFigure() {
        WorkerCounterLog.Report stock = WorkerCounterLog.parse(report("02:40:00.451", 0, 0, 0, true)).get(0);
        assertNull(WorkerCounters.between(Optional.empty(), Optional.of(stock)).perEmittedTuple(WorkerCounters.SERIALIZATIONS));
    }

    @Test
    void droppedOrMalformedMessagesAreFailures() {
        WorkerCounters ok = new WorkerCounters("delta", "a", "b", 1.0, Map.of("rdma-messages-dropped", 0L, "woc-emits", 5L));
        WorkerCounters dropping = new WorkerCounters("delta", "a", "b", 1.0,
            Map.of("rdma-messages-dropped", 15_407L, "woc-frames-malformed", 0L));

        assertEquals(List.of(), ok.failures());
        assertEquals(List.of("rdma-messages-dropped=15407"), dropping.failures());
    }

    @Test
    void theReporterFilterKeepsWhalesWorkerCountersOnly() {
        WhaleCounterFilter filter = new WhaleCounterFilter();
        assertTrue(filter.matches(PREFIX + "woc-emits", null));
        assertTrue(filter.matches(PREFIX + "woc-bytes-sent-to-dd828c79-127.0.0.1-16120", null));
        assertTrue(filter.matches(PREFIX + "rdma-messages-sent", null));
        assertFalse(filter.matches("storm.worker.bench-p8-w2-woc-1-1795315184.localhost.orders.3.16110-__emit-count-default", null));
        assertFalse(filter.matches("storm.worker.bench-p8-w2-woc-1-1795315184.localhost.__system.-1.16110-worker-transfer-queue-population",
            null));
        assertFalse(filter.matches("storm.worker.bench-p8-w2-woc-1-1795315184.localhost.__system.-1.-woc-emits", null),
            "the worker's port comes before the counter's name");
        assertFalse(filter.matches("storm.worker.bench-p8-w2-woc-1-1795315184.localhost.matcher.3.16110-woc-emits", null),
            "a task's metric, not the worker's");
    }

    @Test
    void findsTheLogOfTheWorkerByItsPidAndPort(@TempDir Path logs) throws Exception {
        Path spout = Files.createDirectories(logs.resolve("supervisor-2/workers-artifacts/bench-p8-w2-woc-4-1795315184/16120"));
        Path other = Files.createDirectories(logs.resolve("supervisor-1/workers-artifacts/bench-p8-w2-woc-4-1795315184/16110"));
        Files.writeString(spout.resolve("worker.pid"), "4242\n");
        Files.writeString(spout.resolve("worker.log"), "");
        Files.writeString(other.resolve("worker.pid"), "4343\n");
        Files.writeString(other.resolve("worker.log"), "");

        assertEquals(Optional.of(spout.resolve("worker.log")), WorkerCounterLog.find(logs, 4242, 16120));
        assertEquals(Optional.empty(), WorkerCounterLog.find(logs, 4242, 16110));
    }
}
