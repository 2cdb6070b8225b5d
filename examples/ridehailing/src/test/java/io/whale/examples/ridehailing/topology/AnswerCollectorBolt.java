package io.whale.examples.ridehailing.topology;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Tuple;

/** Test sink: counts the matchers' answers to each order of a run in a map the test (same JVM, LocalCluster) reads. */
final class AnswerCollectorBolt extends BaseBasicBolt {
    static final Map<String, Map<String, AtomicInteger>> ANSWERS = new ConcurrentHashMap<>();
    private final String run;

    AnswerCollectorBolt(String run) {
        this.run = run;
    }

    @Override
    public void execute(Tuple tuple, BasicOutputCollector collector) {
        ANSWERS.computeIfAbsent(run, r -> new ConcurrentHashMap<>())
            .computeIfAbsent(tuple.getStringByField(RideHailingTopology.ORDER_ID), id -> new AtomicInteger())
            .incrementAndGet();
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
    }
}
