package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.bench.BenchSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PaperBenchmarkTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldDrawTheReportOfAnEarlierRunAgainFromItsResultsWithoutStartingAnything(@TempDir Path dir) throws Exception {
        PaperOptions measured = PaperOptions.parse("--quick", "--out", dir.toString(), "--figures", "13", "--systems", "storm,whale-woc",
            "--repeats", "2");
        Map<String, Object> saved = new LinkedHashMap<>();
        saved.put("command", "dev-tools/bench-paper.sh --quick --figures 13 --systems storm,whale-woc");
        saved.put("started", "2026-11-29T04:32:40Z");
        saved.put("cpus", 2);
        saved.put("loadAverageAtStart", 0.1);
        saved.put("options", measured);
        saved.put("finished", "2026-11-29T05:08:00Z");
        // round 2: Storm's run failed, Whale's ran — the report the run drew had it, so the redrawn one has it too
        saved.put("results", List.of(result(BenchSystem.STORM, 17, 1), result(BenchSystem.WOC, 170, 1), result(BenchSystem.WOC, 160, 2)));
        saved.put("rateSteps", List.of());
        saved.put("sweeps", List.of());
        JSON.writeValue(dir.resolve("results.json").toFile(), saved);
        Path nowhere = dir.resolve("no-such-home/bin/whale");

        int exit = new PaperBenchmark(PaperOptions.parse("--quick", "--out", dir.toString(), "--figures", "13", "--systems",
            "storm,whale-woc", "--repeats", "2", "--report-only"), nowhere, nowhere, nowhere.getParent(), nowhere).run();

        assertEquals(0, exit, "every series has data: no cluster was needed for it");
        String report = Files.readString(dir.resolve("report.md"));
        assertTrue(report.contains("started 2026-11-29T04:32:40Z, finished 2026-11-29T05:08:00Z"), "the earlier run's times: " + report);
        JsonNode woc = JSON.readTree(dir.resolve("headline.json").toFile()).get(1);
        assertEquals(10.0, woc.path("x_storm").path("median").asDouble(), 1e-9);
        assertTrue(Files.exists(dir.resolve("fig13.png")));
        JsonNode wocAt8 = JSON.readTree(dir.resolve("fig13.json").toFile()).path("series").get(1).path("points").get(0);
        assertEquals(2, wocAt8.path("repeats").asInt(), "both of Whale's rounds, the one without a Storm run included");
    }

    @Test
    void shouldRefuseToDrawTheReportOfRunsMadeWithOtherOptions(@TempDir Path dir) throws Exception {
        Map<String, Object> saved = new LinkedHashMap<>();
        saved.put("options", PaperOptions.parse("--quick", "--out", dir.toString(), "--link-mbit", "2"));
        saved.put("results", List.of());
        JSON.writeValue(dir.resolve("results.json").toFile(), saved);
        Path nowhere = dir.resolve("no-such-home/bin/whale");

        PaperBenchmark other = new PaperBenchmark(PaperOptions.parse("--quick", "--out", dir.toString(), "--report-only"), nowhere,
            nowhere, nowhere.getParent(), nowhere);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, other::run);
        assertTrue(e.getMessage().contains("was made with other options"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--resume", "--report-only"),
            "one runs what is missing, the other nothing");
    }

    /** A run of round {@code repeat} that kept up with {@code rate} records/s offered (its probe and, below it, its common phase). */
    private static PaperResult result(BenchSystem system, double rate, int repeat) {
        PhaseResult probe = new PhaseResult(rate, rate, rate, 0, 200, 180, 500, 4_000, true, Double.NaN);
        PhaseResult common = new PhaseResult(15, 15, 15, 0, 210, 190, 520, 300, true, Double.NaN);
        return new PaperResult("ridehailing", system.option(), 8, 4, repeat, "2026-11-29T04:40:00Z", rate, 1.3, 1.9, 120_000, 300, 10, 6,
            List.of(probe), common, 1, List.of(), List.of(), List.of(), Map.of(), null);
    }
}
