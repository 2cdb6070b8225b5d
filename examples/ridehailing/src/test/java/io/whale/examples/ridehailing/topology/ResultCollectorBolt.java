package io.whale.examples.ridehailing.topology;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.whale.examples.ridehailing.model.Match;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Tuple;

/** Test sink: records each dispatch result of a run in a map the test (same JVM, LocalCluster) reads. */
final class ResultCollectorBolt extends BaseBasicBolt {
    static final Map<String, Map<String, Match>> RESULTS = new ConcurrentHashMap<>();
    private final String run;

    ResultCollectorBolt(String run) {
        this.run = run;
    }

    @Override
    public void execute(Tuple tuple, BasicOutputCollector collector) {
        String orderId = tuple.getStringByField(RideHailingTopology.ORDER_ID);
        RESULTS.computeIfAbsent(run, r -> new ConcurrentHashMap<>()).put(orderId, new Match(orderId,
                tuple.getStringByField(RideHailingTopology.DRIVER_ID), tuple.getDoubleByField(RideHailingTopology.DISTANCE)));
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
    }
}
