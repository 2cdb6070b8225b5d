package io.whale.examples.smoke;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A file of one record per line, appended to and flushed line by line: once {@link #append} returns, the
 * line is in the kernel's hands and survives a SIGKILL of this process.
 */
public final class AppendLog implements AutoCloseable {
    private final Path file;
    private final BufferedWriter out;

    public AppendLog(Path file) {
        this.file = file;
        try {
            Files.createDirectories(file.getParent());
            this.out = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(file, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND, StandardOpenOption.WRITE), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file, e);
        }
    }

    public void append(Object record) {
        try {
            out.write(record.toString());
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file, e);
        }
    }

    /** The complete lines of a log (a line a killed writer left half-written is not one). */
    public static List<String> read(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            int end = text.lastIndexOf('\n');
            return end < 0 ? List.of() : List.of(text.substring(0, end).split("\n"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + file, e);
        }
    }
}
