package io.whale.examples.ridehailing.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;

import io.whale.examples.ridehailing.model.DriverLocation;
import io.whale.examples.ridehailing.model.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DidiGeneratorMainTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteGzippedCsvFilesWithAHeaderAndTheRequestedNumberOfRecords() throws IOException {
        Path trajectories = dir.resolve("t.csv.gz");
        Path orders = dir.resolve("o.csv");
        assertEquals(0, run("trajectories", "--records", "1000", "--drivers", "100", "--seed", "5", "--out", trajectories.toString()));
        assertEquals(0, run("orders", "--records", "200", "--out", orders.toString(), "--gzip"));

        List<String> t = gunzip(trajectories);
        assertEquals(DriverLocation.HEADER, t.get(0));
        assertEquals(1001, t.size());
        assertEquals(new TrajectoryGenerator(5, 100, 1000, DidiGeneratorMain.DEFAULT_START_TS, 3).next().toCsv(), t.get(1));
        List<String> o = gunzip(orders);
        assertEquals(Order.HEADER, o.get(0));
        assertEquals(201, o.size());
    }

    @Test
    void shouldRefuseToRunWithoutADestination() {
        assertEquals(2, run("orders", "--records", "10"));
    }

    private static int run(String... args) {
        return new CommandLine(new DidiGeneratorMain()).execute(args);
    }

    private static List<String> gunzip(Path file) throws IOException {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
            return in.lines().toList();
        }
    }
}
