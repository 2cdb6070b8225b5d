package io.whale.examples.stock.topology;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.whale.examples.stock.model.Deal;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Tuple;

/** Test sink on both aggregator streams: settled deals, and the highest running volume seen per symbol window. */
final class ResultCollectorBolt extends BaseBasicBolt {
    static final Map<String, Set<Deal>> DEALS = new ConcurrentHashMap<>();
    static final Map<String, Map<String, Long>> VOLUMES = new ConcurrentHashMap<>();
    private final String run;

    ResultCollectorBolt(String run) {
        this.run = run;
    }

    @Override
    public void execute(Tuple tuple, BasicOutputCollector collector) {
        if (StockTopology.VOLUME_STREAM.equals(tuple.getSourceStreamId())) {
            String book = tuple.getStringByField(StockTopology.SYMBOL) + "@" + tuple.getLongByField("windowStart");
            VOLUMES.computeIfAbsent(run, r -> new ConcurrentHashMap<>()).merge(book, tuple.getLongByField("volume"), Math::max);
        } else {
            DEALS.computeIfAbsent(run, r -> ConcurrentHashMap.newKeySet()).add(StockTopology.dealOf(tuple));
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
    }
}
