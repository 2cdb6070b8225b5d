package io.whale.examples.smoke;

import java.nio.file.Path;
import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;

/**
 * Appends every id it receives to {@code received-<task>.log} (flushed) before acking it, so an acked id is
 * on record even if the worker is killed right after. On start it appends its worker's pid to
 * {@code pids-<task>.log}: a restarted worker shows up as a second line.
 */
public class RecordingBolt extends BaseRichBolt {
    private final String reportDir;
    private transient OutputCollector collector;
    private transient AppendLog received;

    public RecordingBolt(String reportDir) {
        this.reportDir = reportDir;
    }

    static String payload(int id) {
        return "payload-" + id;
    }

    public static Path receivedLog(Path dir, int task) {
        return dir.resolve("received-" + task + ".log");
    }

    public static Path pidsLog(Path dir, int task) {
        return dir.resolve("pids-" + task + ".log");
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        Path dir = Path.of(reportDir);
        this.received = new AppendLog(receivedLog(dir, context.getThisTaskId()));
        try (AppendLog pids = new AppendLog(pidsLog(dir, context.getThisTaskId()))) {
            pids.append(ProcessHandle.current().pid());
        }
    }

    @Override
    public void execute(Tuple tuple) {
        int id = tuple.getIntegerByField("id");
        if (!tuple.getStringByField("payload").equals(payload(id))) {
            throw new IllegalStateException("id " + id + " arrived with a wrong payload: " + tuple.getValues());
        }
        received.append(id);
        collector.ack(tuple);
    }

    @Override
    public void cleanup() {
        received.close();
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
    }
}
