package io.whale.bench.paper;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Follows the feed's events file: each call returns the complete lines appended since the last. */
final class FeedEvents {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path file;
    private int seen;

    FeedEvents(Path file) {
        this.file = file;
    }

    List<JsonNode> newEvents() throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        String text = Files.readString(file);
        String complete = text.substring(0, text.lastIndexOf('\n') + 1);
        List<String> lines = complete.lines().toList();
        List<JsonNode> events = new ArrayList<>();
        for (String line : lines.subList(seen, lines.size())) {
            events.add(JSON.readTree(line));
        }
        seen = lines.size();
        return events;
    }
}
