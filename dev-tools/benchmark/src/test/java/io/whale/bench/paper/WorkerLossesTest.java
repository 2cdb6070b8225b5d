package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerLossesTest {
    private static final String TOPOLOGY = "paper-ridehailing-whale-woc-p128-r1";

    @Test
    void shouldSumEachWorkersLastReportOfWhatItLostAndLeaveOutWhatNobodyLost(@TempDir Path logs) throws Exception {
        worker(logs, 1, 16110, report("01:37:30.000", 0, 0), report("01:37:40.000", 275, 0), report("01:40:00.000", 1775, 0));
        worker(logs, 2, 16120, report("01:40:00.000", 0, 12));
        worker(logs, 3, 16130, report("01:40:00.000", 0, 0));
        Path otherRun = logs.resolve("supervisor-1/workers-artifacts/" + TOPOLOGY + "-steps-2-1796088999/16110/worker.log");
        Files.createDirectories(otherRun.getParent());
        Files.writeString(otherRun, report("01:40:00.000", 999, 999));

        assertEquals(Map.of("woc-tuples-dropped-stalled", 1775L, "relay-tuples-lost", 12L), WorkerLosses.of(SourceHost.workerReports(logs, TOPOLOGY)),
            "the shutdown's report of each of the run's workers, the other run's left out, rdma-messages-dropped at 0 left out");
    }

    private static void worker(Path logs, int supervisor, int port, String... reports) throws Exception {
        Path log = logs.resolve("supervisor-" + supervisor + "/workers-artifacts/" + TOPOLOGY + "-1-1796088951/" + port + "/worker.log");
        Files.createDirectories(log.getParent());
        Files.writeString(log, String.join("", reports));
    }

    private static String report(String time, long stalled, long relayLost) {
        String prefix = "storm.worker." + TOPOLOGY + "-1-1796088951.localhost.__system.-1.16110-";
        return line(time, "12/1/26, 1:37:30 AM ============================================================")
            + line(time, "")
            + line(time, "-- Counters --------------------------------------------------------------------")
            + line(time, prefix + "rdma-messages-dropped")
            + line(time, "             count = 0")
            + line(time, prefix + "relay-tuples-lost")
            + line(time, "             count = " + relayLost)
            + line(time, prefix + "woc-tuples-dropped-stalled")
            + line(time, "             count = " + stalled)
            + line(time, "")
            + line(time, "");
    }

    private static String line(String time, String message) {
        return "2026-12-01 " + time + " c.c.m.ConsoleReporter metrics-console-reporter-2-thread-1 [INFO] " + message + "\n";
    }
}
