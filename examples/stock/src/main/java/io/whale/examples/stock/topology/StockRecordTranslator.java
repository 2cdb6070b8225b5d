package io.whale.examples.stock.topology;

import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.storm.kafka.spout.Func;
import org.apache.storm.tuple.Values;

/**
 * Kafka record (key: order id, value: CSV line) to tuple {@link StockTopology#SOURCE_FIELDS}, stamped
 * with the emit time latency is measured from. Validation is the split bolt's job; only a record
 * without a numeric key (not written by the generator or loader) is dropped here.
 */
public final class StockRecordTranslator implements Func<ConsumerRecord<String, String>, List<Object>> {
    private static final long serialVersionUID = 1L;

    @Override
    public List<Object> apply(ConsumerRecord<String, String> record) {
        try {
            return new Values(Long.parseLong(record.key()), record.value(), System.currentTimeMillis());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
