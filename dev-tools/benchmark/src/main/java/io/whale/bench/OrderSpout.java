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
 * Emits small order-like tuples (id, lon, lat, emit time in epoch microseconds) unanchored. Unpaced, one per
 * {@code nextTuple} call: with acking off, only Storm's backpressure limits the rate. With {@link #RATE_KEY} set,
 * at that offered rate as a Poisson process: each {@code nextTuple} emits the orders that fell due (at most
 * {@link #MAX_BURST}), each stamped with its arrival time, so a spout held back by backpressure shows as latency.
 */
public final class OrderSpout extends BaseRichSpout {
    /** Topology conf key: offered rate in orders per second (a number); unset or 0, unpaced. */
    static final String RATE_KEY = "bench.spout.rate.per.s";
    static final int MAX_BURST = 1_000;

    private final String reportDir;
    private transient SpoutOutputCollector collector;
    private transient SplittableRandom random;
    private transient TaskReporter reporter;
    private transient double ratePerSecond;
    private transient PoissonArrivals arrivals;
    private long nextId;

    public OrderSpout(String reportDir) {
        this.reportDir = reportDir;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.random = new SplittableRandom(context.getThisTaskId());
        this.reporter = TaskReporter.start(reportDir, TaskReport.Role.SPOUT, context.getThisTaskId(), context.getThisWorkerPort());
        this.ratePerSecond = conf.get(RATE_KEY) == null ? 0 : ((Number) conf.get(RATE_KEY)).doubleValue();
    }

    @Override
    public void nextTuple() {
        if (ratePerSecond <= 0) {
            emit(EpochMicros.now());
            return;
        }
        long now = System.nanoTime();
        if (arrivals == null) {
            // the process starts with the first call, once the topology is active, not while its workers start
            arrivals = new PoissonArrivals(ratePerSecond, now, new SplittableRandom(nextId * 31L + 7));
        }
        // Wall clock now, less how late the arrival is by the monotonic clock: this VM's wall clock gets stepped,
        // so an offset fixed at open would drift from the matchers' clock by the steps.
        long nowMicros = EpochMicros.now();
        for (int i = 0; i < MAX_BURST; i++) {
            long due = arrivals.nextDue(now);
            if (due == Long.MIN_VALUE) {
                return;
            }
            emit(nowMicros - (now - due) / 1_000);
        }
    }

    private void emit(long emitMicros) {
        collector.emit(new Values(nextId++, random.nextDouble(-180, 180), random.nextDouble(-90, 90), emitMicros));
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
