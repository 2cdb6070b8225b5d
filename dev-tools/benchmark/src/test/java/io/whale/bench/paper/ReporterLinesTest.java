package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReporterLinesTest {
    @TempDir
    Path dir;

    @Test
    void shouldMergeTheIntervalsThatEndedInsideTheWindow() throws Exception {
        Path file = dir.resolve("reporter.jsonl");
        StringBuilder lines = new StringBuilder();
        lines.append(line(1_000, 5, 5)).append(line(2_000, 10, 20)).append(line(3_000, 30, 40)).append(line(4_000, 1_000, 1_000));
        Files.writeString(file, lines.toString());

        ReporterLines reporter = ReporterLines.read(file);
        assertEquals(8, reporter.results());
        Histogram window = reporter.between(1_000, 3_000);
        assertEquals(4, window.getTotalCount(), "the intervals ending at 2 s and 3 s");
        assertEquals(40, window.getMaxValue(), 1);
        assertEquals(0, ReporterLines.read(dir.resolve("absent.jsonl")).results(), "no reporter lines yet: no results");
    }

    @Test
    void shouldReadEachLinesHundredMillisecondBinsAndNoneFromLinesWrittenWithout() throws Exception {
        Path file = dir.resolve("reporter.jsonl");
        Map<String, Object> binned = new LinkedHashMap<>(new ObjectMapper().readValue(line(2_000, 10, 20), Map.class));
        binned.putAll(Map.of("bin_ms", 100, "bins_start_ms", 1_800, "bin_results", List.of(0, 2), "bin_latency_sum_ms", List.of(0, 30)));
        Files.writeString(file, line(1_000, 5, 5) + new ObjectMapper().writeValueAsString(binned) + "\n");

        List<ReporterLines.Interval> intervals = ReporterLines.read(file).intervals();
        assertEquals(List.of(), intervals.get(0).bins());
        assertEquals(List.of(new ReporterLines.Bin(1_800, 100, 0, 0), new ReporterLines.Bin(1_900, 100, 2, 30)), intervals.get(1).bins());
    }

    /** A reporter line ending at {@code endMillis} with two results of these latencies. */
    private static String line(long endMillis, long latencyA, long latencyB) throws Exception {
        Histogram h = new Histogram(3_600_000, 3);
        h.recordValue(latencyA);
        h.recordValue(latencyB);
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return new ObjectMapper().writeValueAsString(Map.of("time_ms", endMillis, "results", 2,
            "histogram", Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length)))) + "\n";
    }
}
