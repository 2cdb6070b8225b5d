package io.whale.examples.kafka;

import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.storm.kafka.spout.FirstPollOffsetStrategy;
import org.apache.storm.kafka.spout.Func;
import org.apache.storm.kafka.spout.KafkaSpout;
import org.apache.storm.kafka.spout.KafkaSpoutConfig;
import org.apache.storm.kafka.spout.KafkaSpoutConfig.ProcessingGuarantee;
import org.apache.storm.tuple.Fields;

/** The storm-kafka-client spouts the examples read their topics with. */
public final class KafkaSpouts {
    private KafkaSpouts() {
    }

    /**
     * An at-least-once spout over one topic of string keys and CSV values: offsets are committed
     * only once the tuple tree of the record is fully acked, failed tuples are replayed, and a new
     * consumer group starts from the earliest offset.
     *
     * @param translator turns a record into the tuple values (null drops the record); runs when the
     *                   tuple is emitted, so it may stamp the emit time
     */
    public static KafkaSpout<String, String> atLeastOnce(String bootstrapServers, String topic, String groupId,
                                                         Func<ConsumerRecord<String, String>, List<Object>> translator,
                                                         Fields fields) {
        KafkaSpoutConfig<String, String> config = KafkaSpoutConfig.builder(bootstrapServers, topic)
                .setProp(ConsumerConfig.GROUP_ID_CONFIG, groupId)
                .setProp(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500)
                .setProcessingGuarantee(ProcessingGuarantee.AT_LEAST_ONCE)
                .setFirstPollOffsetStrategy(FirstPollOffsetStrategy.UNCOMMITTED_EARLIEST)
                .setOffsetCommitPeriodMs(1_000)
                .setRecordTranslator(translator, fields)
                .build();
        return new KafkaSpout<>(config);
    }
}
