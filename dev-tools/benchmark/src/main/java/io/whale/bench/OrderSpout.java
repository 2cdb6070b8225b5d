package io.whale.bench;

import java.util.Map;
import java.util.SplittableRandom;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Emits small order-like tuples (id, lon, lat, emit time in epoch microseconds) unanchored, one per
 * {@code nextTuple} call: with acking off, only Storm's backpressure limits the rate.
 */
public final class OrderSpout extends BaseRichSpout {
    private final String reportDir;
    private transient SpoutOutputCollector collector;
    private transient SplittableRandom random;
    private transient TaskReporter reporter;
    private long nextId;

    public OrderSpout(String reportDir) {
        this.reportDir = reportDir;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.random = new SplittableRandom(context.getThisTaskId());
        this.reporter = TaskReporter.start(reportDir, TaskReport.Role.SPOUT, context.getThisTaskId(), context.getThisWorkerPort());
    }

    @Override
    public void nextTuple() {
        collector.emit(new Values(nextId++, random.nextDouble(-180, 180), random.nextDouble(-90, 90), EpochMicros.now()));
        reporter.counted();
    }

    @Override
    public void close() {
        reporter.stop();
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("id", "lon", "lat", "emitMicros"));
    }
}
