package io.whale.multicast.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each scenario command at small sizes: it runs and writes readable JSON and PNG charts. */
class ScenariosSmokeTest {
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G'};
    @TempDir
    Path out;

    @Test
    void fig21WritesLatencyPerStructureAndSize() throws IOException {
        Scenarios.main(new String[] {"fig21", "--quick", "--out", out.toString()});
        JsonNode json = new ObjectMapper().readTree(out.resolve("fig21.json").toFile());
        assertEquals(6, json.get("points").size(), "2 sizes x 3 structures");
        for (JsonNode p : json.get("points")) {
            assertTrue(p.get("meanLatencyMicros").asDouble() > 0);
        }
        assertPng(out.resolve("fig21.png"));
    }

    @Test
    void ratestepWritesRunsSwitchesAndCharts() throws IOException {
        Scenarios.main(new String[] {"ratestep", "--quick", "--out", out.toString()});
        JsonNode json = new ObjectMapper().readTree(out.resolve("ratestep.json").toFile());
        JsonNode adaptive = json.get("runs").get("nonblocking-adaptive");
        assertEquals(0, adaptive.get("droppedAtSource").asLong());
        assertTrue(adaptive.get("switches").size() >= 4);
        assertTrue(json.get("runs").get("nonblocking-adaptive-slow-switch").get("droppedAtSource").asLong() > 0);
        for (String chart : new String[] {"ratestep-throughput.png", "ratestep-latency.png", "ratestep-queue.png",
                "ratestep-switch-zoom.png"}) {
            assertPng(out.resolve(chart));
        }
    }

    @Test
    void theoremsWritesBothChecks() throws IOException {
        Scenarios.main(new String[] {"theorems", "--quick", "--out", out.toString()});
        JsonNode json = new ObjectMapper().readTree(out.resolve("theorems.json").toFile());
        assertTrue(json.get("theorem1Holds").asBoolean());
        assertTrue(json.get("theorem2Holds").asBoolean());
        assertTrue(json.get("erratum").get("loadAtPrintedBound").asDouble() > 1);
        assertPng(out.resolve("theorem1.png"));
        assertPng(out.resolve("theorem1-queue.png"));
        assertPng(out.resolve("theorem2.png"));
    }

    private static void assertPng(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        assertTrue(bytes.length > 1000, file + " is " + bytes.length + " bytes");
        for (int i = 0; i < PNG_MAGIC.length; i++) {
            assertEquals(PNG_MAGIC[i], bytes[i], file + " is not a PNG");
        }
    }
}
