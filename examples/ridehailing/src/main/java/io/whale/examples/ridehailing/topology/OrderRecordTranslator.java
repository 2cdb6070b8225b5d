package io.whale.examples.ridehailing.topology;

import java.util.List;

import io.whale.examples.ridehailing.model.Order;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.storm.kafka.spout.Func;

/**
 * Kafka order record to tuple {@link RideHailingTopology#ORDER_FIELDS}, stamped with the emit time
 * the reporter measures latency from; malformed records are dropped.
 */
public final class OrderRecordTranslator implements Func<ConsumerRecord<String, String>, List<Object>> {
    private static final long serialVersionUID = 1L;

    @Override
    public List<Object> apply(ConsumerRecord<String, String> record) {
        try {
            return RideHailingTopology.orderValues(Order.parse(record.value()), System.currentTimeMillis());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
