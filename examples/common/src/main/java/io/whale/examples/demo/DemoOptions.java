package io.whale.examples.demo;

import picocli.CommandLine.Option;

/** Command-line options every Kafka-fed example demo shares (a picocli mixin). */
public final class DemoOptions {
    /** Clear of Kafka's usual 9092 and of the local cluster's ports (16000 up, see {@code whale local-cluster}). */
    public static final int DEFAULT_KAFKA_PORT = 16092;

    @Option(names = "--duration-s", defaultValue = "60",
            description = "follow the topology at most this long; it ends earlier once every record is processed (default: ${DEFAULT-VALUE})")
    int durationSeconds;

    @Option(names = "--workers", defaultValue = "2", description = "worker processes (default: ${DEFAULT-VALUE})")
    int workers;

    @Option(names = "--matchers", defaultValue = "4", description = "matcher parallelism (default: ${DEFAULT-VALUE})")
    int matchers;

    @Option(names = "--partitions", defaultValue = "4", description = "partitions of each Kafka topic (default: ${DEFAULT-VALUE})")
    int partitions;

    @Option(names = "--report-interval-s", defaultValue = "2", description = "reporter interval (default: ${DEFAULT-VALUE})")
    int reportIntervalSeconds;

    @Option(names = "--kafka-port", defaultValue = "" + DEFAULT_KAFKA_PORT, description = "Kafka client port on 127.0.0.1 (default: ${DEFAULT-VALUE})")
    int kafkaPort;

    @Option(names = "--seed", defaultValue = "1", description = "generator seed (default: ${DEFAULT-VALUE})")
    long seed;

    public long seed() {
        return seed;
    }

    String bootstrap() {
        return "127.0.0.1:" + kafkaPort;
    }
}
