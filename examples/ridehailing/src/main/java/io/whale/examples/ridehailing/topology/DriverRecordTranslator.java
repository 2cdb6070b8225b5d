package io.whale.examples.ridehailing.topology;

import java.util.List;

import io.whale.examples.ridehailing.model.DriverLocation;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.storm.kafka.spout.Func;

/** Kafka trajectory record to tuple {@link RideHailingTopology#DRIVER_FIELDS}; malformed records are dropped. */
public final class DriverRecordTranslator implements Func<ConsumerRecord<String, String>, List<Object>> {
    private static final long serialVersionUID = 1L;

    @Override
    public List<Object> apply(ConsumerRecord<String, String> record) {
        try {
            return RideHailingTopology.driverValues(DriverLocation.parse(record.value()));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
