package io.whale.examples.smoke;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Emits numbered tuples with a payload of a fixed size, unanchored, as fast as Storm lets it up to
 * {@code maxPerSecond} (0: no limit), so only backpressure slows it below that. Reports its emitted count and
 * its worker's heap to {@code spout.properties} four times a second.
 */
public class FloodSpout extends BaseRichSpout {
    public static final String REPORT = "spout.properties";

    private final int maxPerSecond;
    private final int payloadBytes;
    private final String reportDir;
    private transient SpoutOutputCollector collector;
    private transient String payload;
    private transient ProgressReporter reporter;
    /** Rate limit as a token bucket holding at most a tenth of a second's worth, so a stall earns no burst. */
    private transient double tokens;
    private transient long refilledNanos;
    /** Written by the executor thread only, read by the reporter. */
    private transient volatile long emitted;

    public FloodSpout(int maxPerSecond, int payloadBytes, String reportDir) {
        this.maxPerSecond = maxPerSecond;
        this.payloadBytes = payloadBytes;
        this.reportDir = reportDir;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        char[] filler = new char[payloadBytes];
        Arrays.fill(filler, 'x');
        this.payload = new String(filler);
        this.refilledNanos = System.nanoTime();
        this.reporter = new ProgressReporter(Path.of(reportDir, REPORT), () -> WorkerSample.of("emitted", emitted));
    }

    @Override
    public void nextTuple() {
        if (maxPerSecond > 0) {
            long now = System.nanoTime();
            tokens = Math.min(maxPerSecond / 10.0, tokens + (now - refilledNanos) * (double) maxPerSecond / TimeUnit.SECONDS.toNanos(1));
            refilledNanos = now;
            if (tokens < 1) {
                return;
            }
            tokens--;
        }
        collector.emit(new Values(emitted, payload));
        emitted++;
    }

    @Override
    public void close() {
        reporter.close();
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("n", "payload"));
    }
}
