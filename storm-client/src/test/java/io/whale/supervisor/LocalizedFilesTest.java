package io.whale.supervisor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.storm.daemon.supervisor.AdvancedFSOps;
import org.apache.storm.utils.ConfigUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalizedFilesTest {

    @TempDir
    Path dir;

    @Test
    void shouldReadAFileThatIsThere() throws Exception {
        Path file = Files.write(dir.resolve("stormcode.ser"), new byte[] {1, 2, 3});

        assertArrayEquals(new byte[] {1, 2, 3}, LocalizedFiles.readAll(file.toFile()));
    }

    @Test
    void shouldReportAMissingFileAsNotFoundWithTheNioCause() {
        File missing = dir.resolve("stormconf.ser").toFile();

        FileNotFoundException e = assertThrows(FileNotFoundException.class, () -> LocalizedFiles.readAll(missing));

        assertInstanceOf(NoSuchFileException.class, e.getCause());
    }

    @Test
    void shouldReportAMissingStormConfAsNotFoundToTheSupervisor() {
        String confPath = dir.resolve("stormconf.ser").toString();

        assertThrows(FileNotFoundException.class, () -> ConfigUtils.readSupervisorStormConfGivenPath(Map.of(), confPath));
    }

    @Test
    void shouldReportAMissingStormCodeAsNotFoundToTheSupervisor() {
        String codePath = dir.resolve("stormcode.ser").toString();

        assertThrows(FileNotFoundException.class,
            () -> ConfigUtils.readSupervisorStormCodeGivenPath(codePath, AdvancedFSOps.make(Map.of())));
    }
}
