package io.whale.examples.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;

/** Topic creation and liveness checks through Kafka's Admin API. */
public final class TopicAdmin {
    private TopicAdmin() {
    }

    /** Creates each topic with the given partition count (replication factor 1); existing topics are kept as they are. */
    public static void createTopics(String bootstrapServers, Map<String, Integer> partitionsByTopic) {
        try (Admin admin = Admin.create(adminProperties(bootstrapServers, Duration.ofSeconds(30)))) {
            List<NewTopic> topics = partitionsByTopic.entrySet().stream()
                    .map(e -> new NewTopic(e.getKey(), e.getValue(), (short) 1))
                    .toList();
            for (var result : admin.createTopics(topics).values().entrySet()) {
                try {
                    result.getValue().get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + result.getKey(), e.getCause());
                    }
                }
            }
            awaitLeaders(admin, partitionsByTopic, Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }

    /**
     * Waits until the broker leads every partition (an offset lookup succeeds): producing into a topic
     * the moment it is created can otherwise hit NOT_LEADER_OR_FOLLOWER and, with the idempotent
     * producer, out-of-order sequence errors that never heal.
     */
    private static void awaitLeaders(Admin admin, Map<String, Integer> partitionsByTopic, Duration timeout)
            throws InterruptedException {
        Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
        partitionsByTopic.forEach((topic, count) -> {
            for (int p = 0; p < count; p++) {
                partitions.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
        });
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                admin.listOffsets(partitions).all().get();
                return;
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("topics " + partitionsByTopic.keySet() + " have no leader after " + timeout, e.getCause());
                }
                Thread.sleep(100);
            }
        }
    }

    /** True when a broker at {@code bootstrapServers} answers a describe-cluster request within {@code timeout}. */
    public static boolean answers(String bootstrapServers, Duration timeout) {
        try (Admin admin = Admin.create(adminProperties(bootstrapServers, timeout))) {
            admin.describeCluster().clusterId().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Properties adminProperties(String bootstrapServers, Duration timeout) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        int millis = (int) Math.max(1000, timeout.toMillis());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(millis, 5000));
        p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500);
        return p;
    }

    /** Returns the partition count of each topic as seen by the broker. */
    public static Map<String, Integer> partitionCounts(String bootstrapServers, List<String> topics) {
        try (Admin admin = Admin.create(adminProperties(bootstrapServers, Duration.ofSeconds(30)))) {
            Map<String, Integer> counts = new TreeMap<>();
            admin.describeTopics(topics).allTopicNames().get()
                    .forEach((name, description) -> counts.put(name, description.partitions().size()));
            return counts;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot describe topics " + topics, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing topics", e);
        }
    }

    /**
     * How many records of {@code topic} the consumer group has not committed yet (end offset minus
     * committed offset, summed over partitions; a partition without a commit counts in full).
     */
    public static long consumerLag(String bootstrapServers, String groupId, String topic) {
        try (Admin admin = Admin.create(adminProperties(bootstrapServers, Duration.ofSeconds(30)))) {
            Map<TopicPartition, OffsetAndMetadata> committed =
                    admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata().get();
            int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            long lag = 0;
            for (var end : admin.listOffsets(latest).all().get().entrySet()) {
                OffsetAndMetadata done = committed.get(end.getKey());
                lag += end.getValue().offset() - (done == null ? 0 : done.offset());
            }
            return lag;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read offsets of group " + groupId, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading offsets", e);
        }
    }
}
