package io.whale.examples.smoke;

import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Emits the numbers 0..count-1, anchored with the number as message id: once each, then goes quiet; or, with a
 * positive {@code perSecond}, round after round at that rate for as long as it runs.
 */
public class NumberSpout extends BaseRichSpout {
    private final int count;
    private final int perSecond;
    private transient SpoutOutputCollector collector;
    private transient long emitted;
    private transient long startNanos;

    public NumberSpout(int count, int perSecond) {
        this.count = count;
        this.perSecond = perSecond;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.startNanos = System.nanoTime();
    }

    @Override
    public void nextTuple() {
        if (mayEmit(emitted, System.nanoTime() - startNanos)) {
            int n = (int) (emitted % count);
            collector.emit(new Values(n, "payload-" + n), n);
            emitted++;
        }
    }

    /** Whether the next tuple is due after {@code emitted} tuples and {@code elapsedNanos} since the spout opened. */
    boolean mayEmit(long emitted, long elapsedNanos) {
        return perSecond == 0 ? emitted < count : emitted < elapsedNanos * perSecond / 1_000_000_000L;
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
