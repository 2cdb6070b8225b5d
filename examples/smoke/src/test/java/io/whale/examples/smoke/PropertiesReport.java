package io.whale.examples.smoke;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Properties;

/** A small properties file replaced atomically on each write, so a reader never sees half of it. */
public final class PropertiesReport {
    private final Path file;

    public PropertiesReport(Path file) {
        this.file = file;
    }

    public void write(Map<String, ?> values) {
        Properties p = new Properties();
        values.forEach((k, v) -> p.setProperty(k, String.valueOf(v)));
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
            try (Writer out = Files.newBufferedWriter(tmp)) {
                p.store(out, null);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public static Properties read(Path file) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return p;
    }
}
