package io.whale.bench;

import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;

/**
 * One of the P matchers every order is broadcast to: finds the nearest of 50 fixed points, records the
 * end-to-end latency (now minus the spout's emit time) and counts the delivery; acks the order (a no-op with acking off).
 * Emits nothing.
 */
public final class MatcherBolt extends BaseRichBolt {
    static final int POINTS = 50;

    private final String reportDir;
    private transient NearestPoint points;
    private transient TaskReporter reporter;
    private transient OutputCollector collector;
    /** Keeps the search from being optimised away. */
    private transient long checksum;

    public MatcherBolt(String reportDir) {
        this.reportDir = reportDir;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        points = new NearestPoint(POINTS, 42);
        reporter = TaskReporter.start(reportDir, TaskReport.Role.MATCHER, context.getThisTaskId(), context.getThisWorkerPort());
    }

    @Override
    public void execute(Tuple order) {
        checksum += points.nearest(order.getDouble(1), order.getDouble(2));
        reporter.delivered(EpochMicros.now() - order.getLong(3));
        collector.ack(order);
    }

    @Override
    public void cleanup() {
        reporter.stop();
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
    }
}
