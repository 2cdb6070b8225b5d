package io.whale.examples.stock.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.whale.examples.stock.model.StockRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class NasdaqGeneratorMainTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteACsvFileWithAHeaderAndTheSameRecordsAsTheGenerator() throws IOException {
        Path file = dir.resolve("nasdaq.csv");
        assertEquals(0, new CommandLine(new NasdaqGeneratorMain())
                .execute("--records", "500", "--seed", "9", "--rate", "100", "--out", file.toString()));
        List<String> lines = Files.readAllLines(file);
        assertEquals(StockRecord.HEADER, lines.get(0));
        assertEquals(501, lines.size());
        NasdaqGenerator expected = new NasdaqGenerator(9, 500, NasdaqGeneratorMain.DEFAULT_START_MILLIS, 100, 1.0, 0.01);
        for (int i = 1; i <= 500; i++) {
            assertEquals(expected.next().toCsv(), lines.get(i));
        }
    }
}
