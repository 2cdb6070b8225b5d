package io.whale.examples.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppendLogTest {

    @Test
    void eachAppendIsOnDiskAtOnceAndAReopenedLogKeepsItsLines(@TempDir Path dir) {
        Path file = dir.resolve("sub/ids.log");
        try (AppendLog log = new AppendLog(file)) {
            log.append(1);
            assertEquals(List.of("1"), AppendLog.read(file), "flushed line by line, before close");
        }
        try (AppendLog log = new AppendLog(file)) {
            log.append("2");
        }
        assertEquals(List.of("1", "2"), AppendLog.read(file));
    }

    @Test
    void aHalfWrittenLastLineIsNoRecord(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("ids.log");
        assertEquals(List.of(), AppendLog.read(Files.writeString(file, "")));
        Files.writeString(file, "1\n2\n3", StandardOpenOption.TRUNCATE_EXISTING);
        assertEquals(List.of("1", "2"), AppendLog.read(file));
    }
}
