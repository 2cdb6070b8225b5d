package io.whale.examples.smoke;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Emits the ids 0..count-1 (fewer if its {@link RateSchedule} ends first), no faster than the schedule allows, each
 * with the id as message id.
 * An id stays pending until it is acked; a failed (or timed-out) id is emitted again. Every acked id is
 * appended to {@code acked.log}; the counts, when each step of the schedule began (wall clock,
 * {@code steps.started.ms}) and whether it is over go to {@code spout.properties} about once a second.
 */
public class ReliableIdSpout extends BaseRichSpout {
    public static final String ACKED_LOG = "acked.log";
    public static final String REPORT = "spout.properties";

    private final int count;
    private final RateSchedule rate;
    private final String reportDir;
    private transient SpoutOutputCollector collector;
    private transient Set<Integer> pending;
    private transient Queue<Integer> replays;
    private transient AppendLog ackLog;
    private transient PropertiesReport report;
    private transient long startNanos;
    private transient String stepsStartedMs;
    private transient long lastReportNanos;
    private transient int next;
    private transient int step;
    private transient long emittedBeforeStep;
    private transient long replayed;
    private transient long failed;
    private transient long acked;

    public ReliableIdSpout(int count, RateSchedule rate, String reportDir) {
        this.count = count;
        this.rate = rate;
        this.reportDir = reportDir;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.pending = new HashSet<>();
        this.replays = new ArrayDeque<>();
        this.ackLog = new AppendLog(Path.of(reportDir, ACKED_LOG));
        this.report = new PropertiesReport(Path.of(reportDir, REPORT));
        this.startNanos = System.nanoTime();
        long startMs = System.currentTimeMillis();
        this.stepsStartedMs = rate.stepStartsSecs().stream().map(s -> String.valueOf(startMs + TimeUnit.SECONDS.toMillis(s)))
            .collect(Collectors.joining(","));
        writeReport();
    }

    @Override
    public void nextTuple() {
        Integer replay = replays.poll();
        if (replay != null) {
            replayed++;
            emit(replay);
        } else if (next < count && next < allowedSoFar()) {
            pending.add(next);
            emit(next++);
        }
        if (System.nanoTime() - lastReportNanos > TimeUnit.SECONDS.toNanos(1)) {
            writeReport();
        }
    }

    /** The ids emitted before this step of the schedule, plus what the step allows so far. */
    private long allowedSoFar() {
        long elapsed = System.nanoTime() - startNanos;
        int now = rate.stepAt(elapsed);
        if (now != step) {
            step = now;
            emittedBeforeStep = next;
        }
        return emittedBeforeStep + rate.allowedInStep(step, elapsed - rate.stepStartNanos(step));
    }

    private void emit(int id) {
        collector.emit(new Values(id, RecordingBolt.payload(id)), id);
    }

    @Override
    public void ack(Object msgId) {
        if (pending.remove(msgId)) {
            acked++;
            ackLog.append(msgId);
        }
    }

    @Override
    public void fail(Object msgId) {
        failed++;
        if (pending.contains(msgId)) {
            replays.add((Integer) msgId);
        }
    }

    private void writeReport() {
        lastReportNanos = System.nanoTime();
        report.write(Map.of("pid", ProcessHandle.current().pid(), "emitted", next, "acked", acked, "failed", failed,
            "replayed", replayed, "pending", pending.size(), "steps.started.ms", stepsStartedMs, "schedule.over", step >= rate.steps()));
    }

    @Override
    public void close() {
        ackLog.close();
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("id", "payload"));
    }
}
