package io.whale.bench;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * What one task has done since it started, as {@code task-<id>.properties} in the report folder (replaced
 * atomically): its role, worker pid, the time of the report, its cumulative count (orders emitted by the
 * spout, orders delivered to a matcher) and, for a matcher, its cumulative end-to-end latency histogram
 * (microseconds). The driver subtracts two reports to get a measurement window.
 */
public record TaskReport(Role role, int task, long pid, int workerPort, long timeMicros, long count, Histogram latencyMicros) {
    public enum Role { SPOUT, MATCHER }

    private static final String PREFIX = "task-";
    private static final String SUFFIX = ".properties";

    public void writeTo(Path dir) {
        Properties p = new Properties();
        p.setProperty("role", role.name());
        p.setProperty("task", String.valueOf(task));
        p.setProperty("pid", String.valueOf(pid));
        p.setProperty("worker.port", String.valueOf(workerPort));
        p.setProperty("time.micros", String.valueOf(timeMicros));
        p.setProperty("count", String.valueOf(count));
        if (latencyMicros != null) {
            ByteBuffer buffer = ByteBuffer.allocate(latencyMicros.getNeededByteBufferCapacity());
            int length = latencyMicros.encodeIntoCompressedByteBuffer(buffer);
            p.setProperty("latency.micros", Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length)));
        }
        try {
            Files.createDirectories(dir);
            Path tmp = dir.resolve("." + PREFIX + task + ".tmp");
            try (Writer out = Files.newBufferedWriter(tmp)) {
                p.store(out, null);
            }
            Files.move(tmp, dir.resolve(PREFIX + task + SUFFIX), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report of task " + task + " to " + dir, e);
        }
    }

    static TaskReport parse(Properties p) {
        String encoded = p.getProperty("latency.micros");
        Histogram histogram = null;
        if (encoded != null) {
            try {
                histogram = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(encoded)), 0);
            } catch (DataFormatException e) {
                throw new IllegalArgumentException("corrupt latency histogram in the report of task " + p.getProperty("task"), e);
            }
        }
        return new TaskReport(Role.valueOf(p.getProperty("role")), Integer.parseInt(p.getProperty("task")),
            Long.parseLong(p.getProperty("pid")), Integer.parseInt(p.getProperty("worker.port")),
            Long.parseLong(p.getProperty("time.micros")), Long.parseLong(p.getProperty("count")), histogram);
    }

    /** Every task report in DIR (none if DIR does not exist yet). */
    public static List<TaskReport> readAll(Path dir) {
        List<TaskReport> reports = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return reports;
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith(PREFIX)).toList()) {
                Properties p = new Properties();
                try (Reader in = Files.newBufferedReader(f)) {
                    p.load(in);
                } catch (NoSuchFileException replacedMeanwhile) {
                    continue;
                }
                reports.add(parse(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the reports in " + dir, e);
        }
        return reports;
    }
}
