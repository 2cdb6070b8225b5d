package io.whale.examples.smoke;

import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/** Emits the numbers 0..count-1 once each, anchored with the number as message id, then goes quiet. */
public class NumberSpout extends BaseRichSpout {
    private final int count;
    private transient SpoutOutputCollector collector;
    private transient int next;

    public NumberSpout(int count) {
        this.count = count;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
    }

    @Override
    public void nextTuple() {
        if (next < count) {
            collector.emit(new Values(next, "payload-" + next), next);
            next++;
        }
    }

    @Override
    public void fail(Object msgId) {
        collector.emit(new Values(msgId, "payload-" + msgId), msgId);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("n", "payload"));
    }
}
