package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WindowTest {
    private static final long T0 = 1_000_000_000L;

    @Test
    void ratesComeFromEachTasksOwnReportTimesAndLatencyOnlyFromTheWindow(@TempDir Path dir) {
        Histogram before = new Histogram(3);
        before.recordValueWithCount(100_000, 1_000);
        Histogram after = before.copy();
        after.recordValueWithCount(2_000, 500);
        after.recordValueWithCount(8_000, 500);
        new TaskReport(TaskReport.Role.SPOUT, 1, 11, 16100, T0, 1_000, null).writeTo(dir.resolve("start"));
        new TaskReport(TaskReport.Role.MATCHER, 2, 11, 16100, T0, 1_000, before).writeTo(dir.resolve("start"));
        new TaskReport(TaskReport.Role.MATCHER, 3, 12, 16110, T0, 500, before).writeTo(dir.resolve("start"));
        new TaskReport(TaskReport.Role.SPOUT, 1, 11, 16100, T0 + 2_000_000, 3_000, null).writeTo(dir.resolve("end"));
        new TaskReport(TaskReport.Role.MATCHER, 2, 11, 16100, T0 + 1_000_000, 2_000, after).writeTo(dir.resolve("end"));
        new TaskReport(TaskReport.Role.MATCHER, 3, 12, 16110, T0 + 4_000_000, 2_500, before).writeTo(dir.resolve("end"));

        Window w = Window.between(TaskReport.readAll(dir.resolve("start")), TaskReport.readAll(dir.resolve("end")));

        assertEquals(1_000, w.emittedPerSecond(), 1e-9);
        assertEquals(1_000 + 500, w.deliveriesPerSecond(), 1e-9);
        assertEquals(2_000, w.emitted());
        assertEquals(3_000, w.delivered());
        assertEquals(1_000, w.latencyMicros().getTotalCount());
        assertEquals(2_000, w.latencyMicros().getValueAtPercentile(50), 2);
        assertEquals(8_000, w.latencyMicros().getMaxValue(), 8);
        assertEquals(11, w.spoutPid());
        assertEquals(Set.of(11L, 12L), w.workerPids());
    }

    @Test
    void aTaskRestartedInAnotherWorkerInsideTheWindowIsAnError() {
        TaskReport start = new TaskReport(TaskReport.Role.SPOUT, 1, 11, 16100, T0, 10, null);
        TaskReport restarted = new TaskReport(TaskReport.Role.SPOUT, 1, 99, 16100, T0 + 1_000_000, 5, null);
        assertThrows(IllegalStateException.class, () -> Window.between(List.of(start), List.of(restarted)));
    }

    @Test
    void perTupleFiguresDivideByTheTuplesEmittedInTheWindow() {
        Histogram latency = new Histogram(3);
        latency.recordValue(1_500);
        Window w = new Window(2_000, 8_000, 20_000, 80_000, latency, 11, Set.of(11L, 12L));
        PointResult r = PointResult.of(point(4, "netty"), w, 10, 0.5, 1_000_000, WorkerCounters.none(), "t", 1.0, java.util.List.of(), java.util.Map.of(), 1.5, java.util.List.of());
        assertEquals(25, r.sourceCpuMicrosPerTuple(), 1e-9);
        assertEquals(50, r.wireBytesPerTuple(), 1e-9);
        assertEquals(4, r.deliveriesPerEmitted(), 1e-9);
        assertEquals(1.5, r.p99Millis(), 0.01);
        assertEquals(2, r.workerProcesses());
        assertTrue(Double.isNaN(r.sourceLinkMbit()), "no link on loopback");
        assertEquals(r.row(), r.rowWithWarnings());
    }

    @Test
    void shouldMeasureHowFastTheBacklogPerMatcherGrew() {
        Window w = new Window(2_000, 7_000, 20_000, 70_000, new Histogram(3), 11, Set.of(11L, 12L));
        PointResult r = PointResult.of(point(4, "netty"), w, 10, 0.5, 1_000_000, WorkerCounters.none(), "t", 1.0, java.util.List.of(), java.util.Map.of(), 1.5, java.util.List.of());
        assertEquals(250, r.backlogGrowthPerSecond(), 1e-9, "each of 4 matchers fell 2 500 orders behind in 10 s");
    }

    @Test
    void aPointWhoseTransportDroppedMessagesSaysSoUnderItsRow() {
        Window w = new Window(2_000, 8_000, 20_000, 80_000, new Histogram(3), 11, Set.of(11L, 12L));
        WorkerCounters dropping = new WorkerCounters("delta", "a", "b", 10.0,
            Map.of("rdma-messages-dropped", 15_407L, "woc-emits", 20_000L, "woc-serializations", 20_000L));
        PointResult r = PointResult.of(point(8, "rdma"), w, 10, 0.5, 1_000_000, dropping, "t", 1.0, java.util.List.of(), java.util.Map.of(), 1.5, java.util.List.of());

        assertEquals(1.0, r.serializationsPerEmittedTuple(), 1e-9);
        assertEquals(r.row() + "\n  ! the spout's worker counted rdma-messages-dropped=15407 (delta): these figures do not measure a "
            + "working transport", r.rowWithWarnings());
    }

    @Test
    void shouldTakeTheWireBytesGivenAndKeepEveryHostsLinkBytes() {
        Window w = new Window(2_000, 8_000, 20_000, 80_000, new Histogram(3), 11, Set.of(11L, 12L));
        java.util.List<HostLinks.LinkBytes> links = java.util.List.of(new HostLinks.LinkBytes(0, 10, 10),
            new HostLinks.LinkBytes(1, 400_000, 2_000), new HostLinks.LinkBytes(2, 2_000, 400_000));
        PointResult r = PointResult.of(point(4, "netty"), w, 10, 0.5, 400_000, WorkerCounters.none(), "t", 1.0, links, java.util.Map.of(), 1.5,
            java.util.List.of(0.1, 0.5, 0.25));
        assertEquals(20, r.wireBytesPerTuple(), 1e-9, "the spout host's 400 000 bytes over 20 000 emitted tuples");
        assertEquals(0.32, r.sourceLinkMbit(), 1e-9, "400 000 bytes in 10 s");
        assertEquals(1.5, r.machineCoresBusy());
        assertEquals(links, r.hostLinkBytes());
        assertEquals(java.util.List.of(0.1, 0.5, 0.25), r.hostCores());
        assertTrue(r.rowWithWarnings().endsWith("cores used by host 0..2: 0.10, 0.50, 0.25"), r.rowWithWarnings());
        assertEquals(new HostLinks.LinkBytes(2, 1_000, 395_000),
            new HostLinks.LinkBytes(2, 3_000, 400_000).minus(new HostLinks.LinkBytes(2, 2_000, 5_000)));
    }

    private static BenchPoint point(int matchers, String transport) {
        return new BenchPoint(matchers, 2, BenchSystem.WOC, transport, WaitSetting.DEFAULT, 0, 1, java.util.List.of(), 0,
            new BenchPoint.Dimensions(true, false, false));
    }
}
