package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsFileTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Fails half-way through being written, as a JVM ended mid-write would leave the file. */
    public static final class Unwritable {
        public String getFirst() {
            return "written";
        }

        public String getSecond() {
            throw new IllegalStateException("the JVM ended here");
        }
    }

    @Test
    void shouldLeaveTheLastWholeFileWhenAWriteStopsHalfWay(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("results.json");
        ResultsFile.write(JSON, file, Map.of("results", List.of(1, 2, 3)));
        assertThrows(IOException.class, () -> ResultsFile.write(JSON, file, Map.of("results", new Unwritable())));
        assertEquals(Map.of("results", List.of(1, 2, 3)), JSON.readValue(file.toFile(), Map.class), "the earlier results, whole");
        assertFalse(Files.exists(dir.resolve("results.json.partial")), "nothing left beside it");

        ResultsFile.write(JSON, file, Map.of("results", List.of(4)));
        assertEquals(Map.of("results", List.of(4)), JSON.readValue(file.toFile(), Map.class));
    }
}
