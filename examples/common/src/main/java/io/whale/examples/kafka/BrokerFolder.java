package io.whale.examples.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The files a background broker keeps in its folder: the pid of its process, the bootstrap address
 * it serves, its log and its data. {@link KafkaBrokerControl} reads and writes them.
 */
final class BrokerFolder {
    private final Path dir;

    BrokerFolder(Path dir) {
        this.dir = dir.toAbsolutePath();
    }

    Path dir() {
        return dir;
    }

    Path logFile() {
        return dir.resolve("broker.log");
    }

    Path log4jConfig() {
        return dir.resolve("log4j2.properties");
    }

    Optional<Long> pid() {
        return read("broker.pid").map(Long::parseLong);
    }

    Optional<String> bootstrapServers() {
        return read("bootstrap.servers");
    }

    void recordStarted(long pid, String bootstrapServers) {
        write("broker.pid", Long.toString(pid));
        write("bootstrap.servers", bootstrapServers);
    }

    void recordStopped() {
        try {
            Files.deleteIfExists(dir.resolve("broker.pid"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes a log4j2 config that sends broker logs (INFO and up) to stdout, which the control redirects to broker.log. */
    void writeLog4jConfig() {
        write("log4j2.properties", String.join("\n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.out.ref = OUT",
                "appender.out.type = Console",
                "appender.out.name = OUT",
                "appender.out.layout.type = PatternLayout",
                "appender.out.layout.pattern = [%d] %p %m (%c)%n",
                "logger.kafka.name = kafka",
                "logger.kafka.level = INFO",
                "logger.state.name = state.change.logger",
                "logger.state.level = WARN",
                ""));
    }

    private Optional<String> read(String name) {
        Path file = dir.resolve(name);
        try {
            return Files.exists(file) ? Optional.of(Files.readString(file, StandardCharsets.UTF_8).trim()) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(String name, String content) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
