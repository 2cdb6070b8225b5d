package io.whale.examples.gen;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/** Writes records as CSV lines (after a header line) to a file, gzip-compressed when asked. */
public final class CsvFileSink implements RecordSink {
    private final BufferedWriter out;

    public CsvFileSink(Path file, boolean gzip, String header) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            OutputStream stream = Files.newOutputStream(file);
            if (gzip) {
                stream = new GZIPOutputStream(stream, 1 << 16);
            }
            out = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), 1 << 16);
            out.write(header);
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    @Override
    public void write(String key, String csvLine) {
        try {
            out.write(csvLine);
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
