package io.whale.examples.gen;

import java.nio.file.Path;
import java.util.Map;

import io.whale.examples.kafka.TopicAdmin;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * Command-line choice of where a generator writes: {@code --out FILE} (CSV, gzip when the name ends
 * in {@code .gz} or {@code --gzip} is given) or {@code --bootstrap HOST:PORT} (a Kafka topic, created
 * first with {@code --partitions}).
 */
public final class SinkOptions {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    static final class Target {
        @Option(names = "--out", description = "CSV file to write")
        Path out;

        @Option(names = "--bootstrap", description = "Kafka bootstrap servers to produce to")
        String bootstrap;
    }

    @Option(names = "--gzip", description = "gzip the CSV file")
    boolean gzip;

    @Option(names = "--partitions", defaultValue = "4", description = "partitions when creating a topic (default: ${DEFAULT-VALUE})")
    int partitions;

    @Option(names = "--no-progress", negatable = false, description = "no progress bar")
    boolean noProgress;

    public boolean progress() {
        return !noProgress;
    }

    /** A short description of the destination for log lines. */
    public String describe(String topic) {
        return target.out != null ? target.out.toString() : "topic " + topic + " at " + target.bootstrap;
    }

    /** Opens the file, or creates the topic and opens a producer to it. */
    public RecordSink open(String header, String topic) {
        if (target.out != null) {
            return new CsvFileSink(target.out, gzip || target.out.toString().endsWith(".gz"), header);
        }
        TopicAdmin.createTopics(target.bootstrap, Map.of(topic, partitions));
        return new KafkaTopicSink(target.bootstrap, topic);
    }
}
