package io.whale.examples.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Summarises a report file written by {@link ThroughputLatencyReporter} (topology conf
 * {@value ThroughputLatencyReporter#REPORT_FILE_KEY}): results, mean and peak results/s over the
 * intervals that had results, and the latency percentiles since the reporter started.
 */
@Command(name = "report-summary", mixinStandardHelpOptions = true,
        description = "Prints a one-line summary of a WHALE-REPORT JSON-lines file.")
public final class ReportSummary implements Callable<Integer> {
    @Parameters(paramLabel = "FILE")
    Path file;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ReportSummary()).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        List<JsonNode> lines = read(file);
        if (lines.isEmpty()) {
            System.out.println("no report lines in " + file);
            return 1;
        }
        System.out.println(summarise(lines));
        return 0;
    }

    public static List<JsonNode> read(Path file) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank()) {
                lines.add(json.readTree(line));
            }
        }
        return lines;
    }

    public static String summarise(List<JsonNode> lines) {
        double sum = 0;
        double peak = 0;
        int active = 0;
        for (JsonNode line : lines) {
            double rate = line.get("results_per_s").asDouble();
            if (line.get("results").asLong() > 0) {
                sum += rate;
                active++;
                peak = Math.max(peak, rate);
            }
        }
        JsonNode last = lines.get(lines.size() - 1);
        return String.format("%s: %d results, %.1f results/s mean over %d active intervals, %.1f results/s peak, latency p50 %d ms, p99 %d ms",
                last.get("app").asText(), last.get("total_results").asLong(), active == 0 ? 0 : sum / active, active, peak,
                last.get("total_p50_ms").asLong(), last.get("total_p99_ms").asLong());
    }
}
