package io.whale.examples.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.whale.examples.gen.KafkaTopicSink;
import io.whale.examples.gen.RecordSink;
import io.whale.examples.gen.SinkOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class KraftBrokerTest {
    @TempDir
    Path dir;

    @Test
    void shouldServeTopicsCreatedThroughTheAdminApiOrByAKafkaSinkAndKeepThemAcrossARestart() throws Exception {
        int port = LoopbackPorts.free();
        int controllerPort = LoopbackPorts.free();
        try (KraftBroker broker = KraftBroker.start(dir, "127.0.0.1", port, controllerPort)) {
            assertTrue(TopicAdmin.answers(broker.bootstrapServers(), Duration.ofSeconds(30)));
            TopicAdmin.createTopics(broker.bootstrapServers(), Map.of("lines", 3));
            TopicAdmin.createTopics(broker.bootstrapServers(), Map.of("lines", 3));
            try (KafkaTopicSink sink = new KafkaTopicSink(broker.bootstrapServers(), "lines")) {
                for (int i = 0; i < 100; i++) {
                    sink.write("k" + (i % 7), "line-" + i);
                }
            }
            assertEquals(100, readAll(broker.bootstrapServers(), "lines", 100).size());

            SinkCommand command = new SinkCommand();
            new CommandLine(command).parseArgs("--bootstrap", broker.bootstrapServers(), "--partitions", "2");
            try (RecordSink sink = command.sink.open("header is not produced", "generated")) {
                sink.write("k", "only-line");
            }
            assertEquals(Map.of("generated", 2), TopicAdmin.partitionCounts(broker.bootstrapServers(), List.of("generated")));
            assertEquals(List.of("only-line"), readAll(broker.bootstrapServers(), "generated", 1));
        }
        try (KraftBroker restarted = KraftBroker.start(dir, "127.0.0.1", port, controllerPort)) {
            assertEquals(Map.of("lines", 3), TopicAdmin.partitionCounts(restarted.bootstrapServers(), List.of("lines")));
            assertEquals(100, readAll(restarted.bootstrapServers(), "lines", 100).size());
        }
    }

    @Test
    void shouldListenOnAndAdvertiseTheGivenHostForClientsAndKeepTheControllerOnLoopback() {
        Properties p = KraftBroker.serverProperties(dir, "10.77.0.10", 16092, 16093);
        assertEquals("PLAINTEXT://10.77.0.10:16092,CONTROLLER://127.0.0.1:16093", p.getProperty("listeners"));
        assertEquals("PLAINTEXT://10.77.0.10:16092", p.getProperty("advertised.listeners"));
    }

    @Command
    static final class SinkCommand {
        @Mixin
        SinkOptions sink;
    }

    static List<String> readAll(String bootstrap, String topic, int expected) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "reader-" + System.nanoTime());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + 30_000;
            while (values.size() < expected && System.currentTimeMillis() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(r -> values.add(r.value()));
            }
        }
        return values;
    }
}
