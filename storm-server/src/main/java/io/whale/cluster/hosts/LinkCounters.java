package io.whale.cluster.hosts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The bytes an interface received and sent since it was created, as {@code ip -j -s link show dev X} reports them. */
public record LinkCounters(long rxBytes, long txBytes) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static LinkCounters parse(String ipJson) {
        try {
            JsonNode stats = JSON.readTree(ipJson).path(0).path("stats64");
            if (!stats.path("rx").path("bytes").isNumber() || !stats.path("tx").path("bytes").isNumber()) {
                throw new IllegalArgumentException("no stats64 rx/tx bytes in ip's output: " + ipJson.strip());
            }
            return new LinkCounters(stats.path("rx").path("bytes").asLong(), stats.path("tx").path("bytes").asLong());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read ip's JSON output: " + ipJson.strip(), e);
        }
    }
}
