package io.whale.examples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportSummaryTest {
    @TempDir
    Path dir;

    @Test
    void shouldAverageOnlyIntervalsWithResultsAndTakeLatencyFromTheLastLine() throws IOException {
        Path file = dir.resolve("r.jsonl");
        Files.writeString(file, String.join("\n",
                line(100, 20.0, 100, 5, 50),
                line(300, 60.0, 400, 7, 90),
                line(0, 0.0, 400, 7, 90),
                ""));
        assertEquals("demo: 400 results, 40.0 results/s mean over 2 active intervals, 60.0 results/s peak, latency p50 7 ms, p99 90 ms",
                ReportSummary.summarise(ReportSummary.read(file)));
    }

    private static String line(long results, double rate, long total, long p50, long p99) {
        return "{\"app\":\"demo\",\"results\":" + results + ",\"results_per_s\":" + rate + ",\"total_results\":" + total
                + ",\"total_p50_ms\":" + p50 + ",\"total_p99_ms\":" + p99 + "}";
    }
}
