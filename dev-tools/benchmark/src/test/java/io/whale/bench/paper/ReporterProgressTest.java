package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReporterProgressTest {
    private static void append(Path file, String text) throws Exception {
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void shouldCountTheResultsOfTheLastCompleteLineAsTheReportGrows(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("reporter.jsonl");
        ReporterProgress progress = new ReporterProgress(report, "total_results");
        assertEquals(0, progress.results(), "no report yet");

        append(report, "{\"time_ms\":1000,\"results\":40,\"total_results\":40}\n{\"time_ms\":2000,\"results\":60,\"total_results\":100}\n");
        assertEquals(100, progress.results());

        append(report, "{\"time_ms\":3000,\"results\":50,\"total_res");
        assertEquals(100, progress.results(), "a line cut off mid-write is not read yet");

        append(report, "ults\":150}\n");
        assertEquals(150, progress.results(), "its rest came with the next write");
        assertEquals(150, progress.results(), "nothing new: the same count");
    }

    @Test
    void shouldReadTheRunningCountItWasAskedFor(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("reporter.jsonl");
        append(report, "{\"time_ms\":1000,\"total_results\":12,\"total_records\":700}\n");
        assertEquals(700, new ReporterProgress(report, "total_records").results());
    }
}
