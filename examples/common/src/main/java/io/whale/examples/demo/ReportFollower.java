package io.whale.examples.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Follows a file of JSON lines another process appends (a reporter's report, a feed's events): each complete line once. */
public final class ReportFollower {
    private final Path file;
    private final ObjectMapper json = new ObjectMapper();
    private long consumedChars;

    public ReportFollower(Path file) {
        this.file = file;
    }

    /** The complete lines appended since the last call (a line still being written waits for the next call). */
    public List<JsonNode> newLines() throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int end = text.lastIndexOf('\n') + 1;
        List<JsonNode> lines = new ArrayList<>();
        if (end > consumedChars) {
            for (String line : text.substring((int) consumedChars, end).split("\n")) {
                if (!line.isBlank()) {
                    lines.add(json.readTree(line));
                }
            }
            consumedChars = end;
        }
        return lines;
    }
}
