package io.whale.examples.gen;

import java.io.IOException;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces records into a Kafka topic, keyed so that all records of one key land in one partition
 * in order. Sends are asynchronous; the first failure is rethrown by the next write or by {@link #close()}.
 */
public final class KafkaTopicSink implements RecordSink {
    private final KafkaProducer<String, String> producer;
    private final String topic;
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    public KafkaTopicSink(String bootstrapServers, String topic) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
        this.topic = topic;
    }

    @Override
    public void write(String key, String csvLine) {
        throwIfFailed();
        producer.send(new ProducerRecord<>(topic, key, csvLine), (metadata, error) -> {
            if (error != null) {
                failure.compareAndSet(null, error);
            }
        });
    }

    @Override
    public void close() throws IOException {
        producer.close();
        throwIfFailed();
    }

    private void throwIfFailed() {
        Exception error = failure.get();
        if (error != null) {
            throw new IllegalStateException("producing to " + topic + " failed", error);
        }
    }
}
