package io.whale.examples.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvFileSinkTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteTheHeaderThenOneLinePerRecordGzipped() throws IOException {
        Path file = dir.resolve("records.csv.gz");
        try (CsvFileSink sink = new CsvFileSink(file, true, "a,b")) {
            sink.write("1", "1,x");
            sink.write("2", "2,y");
        }
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
            assertEquals(List.of("a,b", "1,x", "2,y"), in.lines().collect(Collectors.toList()));
        }
    }
}
