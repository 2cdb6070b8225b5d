package io.whale.examples.smoke;

import java.util.BitSet;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Counts the numbers it receives and, every second, reports them through a {@link TaskReport}. */
public class CountingBolt extends BaseRichBolt {
    private static final Logger LOG = LoggerFactory.getLogger(CountingBolt.class);

    private final int expected;
    private final String reportDir;
    private transient OutputCollector collector;
    private transient BitSet seen;
    private transient long received;
    private transient TaskReport report;

    public CountingBolt(int expected, String reportDir) {
        this.expected = expected;
        this.reportDir = reportDir;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.seen = new BitSet(expected);
        this.report = new TaskReport(reportDir, context.getThisTaskId(), context.getThisWorkerPort(),
            context.getThisWorkerTasks().containsAll(context.getComponentTasks(SmokeTopology.SPOUT)));
    }

    @Override
    public void execute(Tuple tuple) {
        if (TupleUtils.isTick(tuple)) {
            report.write(expected, received, seen.cardinality());
            if (seen.cardinality() == expected) {
                LOG.info("task {} received all {} numbers ({} deliveries)", report.taskId(), expected, received);
            }
            return;
        }
        int n = tuple.getIntegerByField("n");
        if (!tuple.getStringByField("payload").equals("payload-" + n)) {
            throw new IllegalStateException("tuple " + n + " arrived with a wrong payload: " + tuple.getValues());
        }
        seen.set(n);
        report.tupleReceived();
        received++;
        collector.ack(tuple);
    }

    @Override
    public Map<String, Object> getComponentConfiguration() {
        return Map.of(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
    }
}
