package io.whale.bench.paper;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How far the application's reporter has counted so far: a running count of the last complete line it appended to its
 * report file ({@code total_results}, one result per record in ride-hailing; {@code total_records}, the records the
 * bolts said they finished, in the stock application), read as the file grows (only the new bytes, a line cut off
 * mid-write kept for the next read). At-most-once runs count their progress here, at the sink: without ackers the
 * Kafka spout commits what it fetches, not what was processed.
 */
final class ReporterProgress {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final String field;
    private final StringBuilder unfinished = new StringBuilder();
    private long offset;
    private long results;

    /** {@code field}: the report line's running count to read. */
    ReporterProgress(Path file, String field) {
        this.file = file;
        this.field = field;
    }

    long results() throws IOException {
        if (!Files.exists(file)) {
            return results;
        }
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            long size = channel.size();
            if (size <= offset) {
                return results;
            }
            ByteBuffer appended = ByteBuffer.allocate(Math.toIntExact(size - offset));
            channel.position(offset);
            while (appended.hasRemaining() && channel.read(appended) > 0) {
                // read what was appended since the last call
            }
            offset += appended.position();
            unfinished.append(new String(appended.array(), 0, appended.position(), StandardCharsets.UTF_8));
        }
        int end = unfinished.lastIndexOf("\n");
        if (end >= 0) {
            String complete = unfinished.substring(0, end).strip();
            unfinished.delete(0, end + 1);
            String last = complete.substring(complete.lastIndexOf('\n') + 1);
            if (!last.isBlank()) {
                results = JSON.readTree(last).path(field).asLong(results);
            }
        }
        return results;
    }
}
