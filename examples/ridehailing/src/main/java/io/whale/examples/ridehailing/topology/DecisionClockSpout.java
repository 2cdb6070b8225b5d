package io.whale.examples.ridehailing.topology;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Strikes every {@value RideHailingTopology#DECIDE_CLOCK_KEY} ms to every aggregator task, so that an order is decided
 * when its wait ends even if no order or answer reaches its aggregator then: a bolt acts only on a tuple, Storm's tick
 * tuples come once a second at the finest, and a bolt may not emit from a thread of its own. Unanchored: nothing to
 * ack or replay. Between strikes {@code nextTuple} emits nothing and the spout's wait strategy idles the executor.
 */
public final class DecisionClockSpout extends BaseRichSpout {
    private transient SpoutOutputCollector collector;
    private transient DecisionClock clock;

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.clock = new DecisionClock(RideHailingTopology.decideClockMillis(conf));
    }

    @Override
    public void nextTuple() {
        long now = TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
        if (clock.strikes(now)) {
            collector.emit(new Values(now));
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("clockMillis"));
    }
}
