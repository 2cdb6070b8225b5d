package io.whale.bench.paper;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * The lines the application's reporter appended (one per second: the interval's end time, its latency histogram and
 * its results in 100-ms bins, see {@code ThroughputLatencyReporter}); {@link #between} merges the intervals that ended
 * inside a window.
 */
final class ReporterLines {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MAX_LATENCY_MS = 3_600_000;

    /**
     * One line: the end of its interval (epoch ms), the latencies (ms) of the results reported in it, and its bins (none
     * in lines written before the reporter had them).
     */
    record Interval(long endMillis, Histogram latency, List<Bin> bins) {
    }

    /** The results that arrived in {@code [startMillis, startMillis + millis)} and their summed latency (ms). */
    record Bin(long startMillis, long millis, long results, long latencySumMillis) {
    }

    private final List<Interval> intervals;

    private ReporterLines(List<Interval> intervals) {
        this.intervals = intervals;
    }

    static ReporterLines read(Path file) throws IOException {
        List<Interval> intervals = new ArrayList<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file)) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n = JSON.readTree(line);
                byte[] bytes = Base64.getDecoder().decode(n.get("histogram").asText());
                try {
                    intervals.add(new Interval(n.get("time_ms").asLong(), Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0),
                        bins(n)));
                } catch (DataFormatException e) {
                    throw new IOException("a histogram in " + file + " does not decode: " + line, e);
                }
            }
        }
        return new ReporterLines(intervals);
    }

    private static List<Bin> bins(JsonNode line) {
        List<Bin> bins = new ArrayList<>();
        JsonNode results = line.path("bin_results");
        JsonNode latencies = line.path("bin_latency_sum_ms");
        long millis = line.path("bin_ms").asLong();
        long start = line.path("bins_start_ms").asLong();
        for (int i = 0; i < results.size(); i++) {
            bins.add(new Bin(start + i * millis, millis, results.get(i).asLong(), latencies.path(i).asLong()));
        }
        return bins;
    }

    /** Every line, in the order written. */
    List<Interval> intervals() {
        return List.copyOf(intervals);
    }

    /** How many results were reported in all. */
    long results() {
        return intervals.stream().mapToLong(i -> i.latency().getTotalCount()).sum();
    }

    /** The latencies (ms) of the intervals that ended after {@code startMillis} and by {@code endMillis}. */
    Histogram between(long startMillis, long endMillis) {
        Histogram merged = new Histogram(MAX_LATENCY_MS, 3);
        intervals.stream().filter(i -> i.endMillis() > startMillis && i.endMillis() <= endMillis).forEach(i -> merged.add(i.latency()));
        return merged;
    }
}
