package io.whale.examples.ridehailing.topology;

import java.util.Map;

import io.whale.examples.ridehailing.model.ChengduArea;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * Keeps the latest positions of the drivers routed to this task (fields grouping on driver id) and
 * joins every order (all grouping, so every matcher sees it) with them: a task with drivers within the
 * radius of the pick-up point answers with how many there are and the nearest; a task with none stays
 * silent (SC'21 §5.1: the matcher "outputs all the qualified matching results"), and the aggregator
 * decides each order within a bounded wait instead of counting answers.
 */
public class MatcherBolt extends BaseRichBolt {
    private transient OutputCollector collector;
    private transient DriverIndex drivers;

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        double centreLat = (ChengduArea.MIN_LAT + ChengduArea.MAX_LAT) / 2;
        this.drivers = new DriverIndex(RideHailingTopology.radiusMetres(conf), centreLat);
    }

    @Override
    public void execute(Tuple tuple) {
        if (RideHailingTopology.DRIVERS.equals(tuple.getSourceComponent())) {
            drivers.update(tuple.getStringByField(RideHailingTopology.DRIVER_ID), tuple.getLongByField("ts"),
                    tuple.getDoubleByField("lon"), tuple.getDoubleByField("lat"));
        } else {
            DriverIndex.Candidates near = drivers.near(tuple.getDoubleByField("pickupLon"), tuple.getDoubleByField("pickupLat"));
            if (near.count() > 0) {
                collector.emit(tuple, new Values(tuple.getStringByField(RideHailingTopology.ORDER_ID),
                        tuple.getLongByField(RideHailingTopology.EMIT_MILLIS), near.count(), near.bestDriver(), near.bestDistance()));
            }
        }
        collector.ack(tuple);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(RideHailingTopology.ANSWER_FIELDS);
    }
}
