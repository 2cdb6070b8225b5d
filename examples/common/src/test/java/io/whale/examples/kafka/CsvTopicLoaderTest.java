package io.whale.examples.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.whale.examples.gen.CsvFileSink;
import io.whale.examples.gen.RecordSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvTopicLoaderTest {
    @TempDir
    Path dir;

    @Test
    void shouldSkipTheHeaderAndKeyByColumnOrByPosition() throws IOException {
        Path file = dir.resolve("in.csv.gz");
        try (CsvFileSink sink = new CsvFileSink(file, true, "id,v")) {
            sink.write("", "a,1");
            sink.write("", "b,2");
        }
        List<String> byColumn = new ArrayList<>();
        assertEquals(2, CsvTopicLoader.load(file, 1, collectingTo(byColumn)));
        assertEquals(List.of("1=a,1", "2=b,2"), byColumn);
        List<String> byPosition = new ArrayList<>();
        CsvTopicLoader.load(file, -1, collectingTo(byPosition));
        assertEquals(List.of("0=a,1", "1=b,2"), byPosition);
    }

    private static RecordSink collectingTo(List<String> out) {
        return new RecordSink() {
            @Override
            public void write(String key, String csvLine) {
                out.add(key + "=" + csvLine);
            }

            @Override
            public void close() {
            }
        };
    }
}
