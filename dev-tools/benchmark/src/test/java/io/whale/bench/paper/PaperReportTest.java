package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PaperReportTest {
    @Test
    void shouldDrawTheTrafficFiguresFromTheSourceHostsBytesAndCompareThemAsAReduction(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString());
        List<PaperResult> results = new ArrayList<>();
        for (PaperApp app : options.apps()) {
            for (PaperSystem s : options.systemsOf(app)) {
                // Storm sends a copy per matcher task, Whale one per worker: a tenth of the bytes
                results.add(result(app, s, s == PaperSystem.STORM ? 70_000 : 7_000));
            }
        }

        List<String> empty = new PaperReport(options, results, Map.of("command", "test", "started", "-", "finished", "-",
            "cpus", 2, "loadAverageAtStart", 0.0)).write();

        assertEquals(List.of(), empty, "every series of every figure has data");
        for (String fig : List.of("fig27", "fig28")) {
            assertTrue(Files.size(dir.resolve(fig + ".png")) > 0, fig + ".png drawn");
            JsonNode json = new ObjectMapper().readTree(dir.resolve(fig + ".json").toFile());
            assertEquals("communication traffic (bytes per 10,000 records)", json.path("metric").asText());
            JsonNode storm = json.path("series").get(0);
            assertEquals("storm", storm.path("system").asText());
            assertEquals(70_000, storm.path("points").get(0).path("median").asDouble());
            JsonNode comparison = json.path("comparisons").get(0);
            assertEquals(90, comparison.path("ours").path("median").asDouble(), 1e-9);
            assertEquals("% less traffic", comparison.path("unit").asText());
        }
        assertTrue(Files.readString(dir.resolve("report.md")).contains("## Fig. 27: Communication traffic using Didi dataset"));
    }

    private static PaperResult result(PaperApp app, PaperSystem system, double bytesPer10k) {
        PhaseResult probe = new PhaseResult(900, 901, 890, 6, 15, 12, 50, 18_000, true);
        PhaseResult common = new PhaseResult(800, 800, 799, 0, 12, 10, 40, 4_000, true);
        return new PaperResult(app.option(), system.option(), 8, 4, 1, "2026-11-24T10:00:00Z", 1_000, 1.9, 8.5, bytesPer10k, 1,
            List.of(probe), common, 1);
    }
}
