package io.whale.bench.paper;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A JSON file written whole or not at all: into a file beside it, then moved over it. Ctrl-C or SIGTERM ends the
 * benchmark's JVM once its clusters are down, possibly while it writes results.json; written in place, the file was
 * left empty so, and with it every result {@code --resume} would have kept.
 */
final class ResultsFile {
    private ResultsFile() {
    }

    static void write(ObjectMapper json, Path file, Object value) throws IOException {
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        try {
            json.writeValue(partial.toFile(), value);
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
        }
    }
}
