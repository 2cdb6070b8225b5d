package io.whale.examples.kafka;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.zip.GZIPInputStream;

import io.whale.examples.gen.KafkaTopicSink;
import io.whale.examples.gen.RecordSink;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Loads a generated CSV file (plain or gzip) into a Kafka topic, creating the topic first. The
 * record key is one CSV column, or the record's 0-based position in the file ({@code --key-column -1}),
 * which is how the generators key records that have no id column.
 */
@Command(name = "load-csv", mixinStandardHelpOptions = true,
        description = "Creates a topic and produces the lines of a CSV file into it (the header line is skipped).")
public final class CsvTopicLoader implements Callable<Integer> {
    @Option(names = "--bootstrap", required = true, description = "Kafka bootstrap servers")
    String bootstrap;

    @Option(names = "--topic", required = true)
    String topic;

    @Option(names = "--partitions", defaultValue = "4", description = "(default: ${DEFAULT-VALUE})")
    int partitions;

    @Option(names = "--key-column", defaultValue = "0",
            description = "column used as the record key; -1 = the record position (default: ${DEFAULT-VALUE})")
    int keyColumn;

    @Parameters(paramLabel = "FILE", description = "CSV file, .gz for gzip")
    Path file;

    public static void main(String[] args) {
        System.exit(new CommandLine(new CsvTopicLoader()).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        TopicAdmin.createTopics(bootstrap, Map.of(topic, partitions));
        long loaded = load(file, keyColumn, new KafkaTopicSink(bootstrap, topic));
        System.out.println("Loaded " + loaded + " records from " + file + " into topic " + topic);
        return 0;
    }

    /** Writes every data line of the file to the sink (which it closes); returns how many. */
    static long load(Path file, int keyColumn, RecordSink sink) throws IOException {
        long position = 0;
        try (RecordSink out = sink; BufferedReader in = open(file)) {
            in.readLine();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.isEmpty()) {
                    continue;
                }
                out.write(keyColumn < 0 ? Long.toString(position) : line.split(",", -1)[keyColumn], line);
                position++;
            }
        }
        return position;
    }

    private static BufferedReader open(Path file) throws IOException {
        InputStream stream = Files.newInputStream(file);
        if (file.toString().endsWith(".gz")) {
            stream = new GZIPInputStream(stream, 1 << 16);
        }
        return new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8), 1 << 16);
    }
}
