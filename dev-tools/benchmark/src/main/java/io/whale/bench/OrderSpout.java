package io.whale.bench;

import io.whale.examples.smoke.RateSchedule;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Emits small order-like tuples (id, lon, lat, emit time in epoch microseconds) unanchored, or with the id as message
 * id when the topology has ackers ({@code bench-woc.sh --acking}; Storm counts a tree that failed or timed out in the
 * spout's {@code __fail-count}, and it is not replayed). Unpaced, one per
 * {@code nextTuple} call: with acking off, only Storm's backpressure limits the rate. With {@link #RATE_KEY} set,
 * at that offered rate as a Poisson process: each {@code nextTuple} emits the orders that fell due (at most
 * {@link #MAX_BURST}), each stamped with its arrival time, so a spout held back by backpressure shows as latency.
 * With a {@link RateSchedule} (the rate-step run), each step is such a process at the step's rate from the step's
 * start; arrivals a step could not emit before it ended are dropped and counted in the log line of the next step,
 * and once the schedule is over the spout emits nothing. Each step is logged when it begins ({@link #STEP_LOG}).
 */
public final class OrderSpout extends BaseRichSpout {
    /** Topology conf key: offered rate in orders per second (a number); unset or 0, unpaced. */
    static final String RATE_KEY = "bench.spout.rate.per.s";
    static final int MAX_BURST = 1_000;
    /** How a step's log line begins; the driver finds the steps by it. */
    static final String STEP_LOG = "Offered rate step";
    static final String OVER_LOG = "Offered rate schedule over";
    private static final Logger LOG = LoggerFactory.getLogger(OrderSpout.class);

    private final String reportDir;
    private final RateSchedule schedule;
    private transient SpoutOutputCollector collector;
    private transient SplittableRandom random;
    private transient TaskReporter reporter;
    private transient double ratePerSecond;
    private transient PoissonArrivals arrivals;
    private transient long scheduleStartNanos;
    /** The step being emitted; -1 until the first call starts the schedule. */
    private transient int step;
    private long nextId;
    /** With ackers, each order is emitted with its id as message id (at-least-once; a failed one is not replayed). */
    private transient boolean reliable;

    public OrderSpout(String reportDir) {
        this(reportDir, null);
    }

    /** Paced by {@code schedule} (null: by {@link #RATE_KEY} or unpaced). */
    public OrderSpout(String reportDir, RateSchedule schedule) {
        this.reportDir = reportDir;
        this.schedule = schedule;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.reliable = ObjectReader.getInt(conf.get(Config.TOPOLOGY_ACKER_EXECUTORS), 0) > 0;
        this.random = new SplittableRandom(context.getThisTaskId());
        this.reporter = TaskReporter.start(reportDir, TaskReport.Role.SPOUT, context.getThisTaskId(), context.getThisWorkerPort());
        this.ratePerSecond = conf.get(RATE_KEY) == null ? 0 : ((Number) conf.get(RATE_KEY)).doubleValue();
        this.step = -1;
    }

    @Override
    public void nextTuple() {
        if (schedule != null) {
            nextScheduled();
            return;
        }
        if (ratePerSecond <= 0) {
            emit(EpochMicros.now());
            return;
        }
        long now = System.nanoTime();
        if (arrivals == null) {
            // the process starts with the first call, once the topology is active, not while its workers start
            arrivals = new PoissonArrivals(ratePerSecond, now, new SplittableRandom(nextId * 31L + 7));
        }
        emitDue(now);
    }

    private void nextScheduled() {
        long now = System.nanoTime();
        if (step < 0) {
            scheduleStartNanos = now;
        }
        int at = schedule.stepAt(now - scheduleStartNanos);
        if (at != step) {
            long stepStart = scheduleStartNanos + schedule.stepStartNanos(at);
            long unemitted = arrivals == null ? 0 : arrivals.dueBefore(stepStart);
            long sinceStepStartMillis = TimeUnit.NANOSECONDS.toMillis(now - stepStart);
            step = at;
            if (at >= schedule.steps()) {
                arrivals = null;
                LOG.info("{} ({} ms ago); the last step left {} arrivals unemitted", OVER_LOG, sinceStepStartMillis, unemitted);
            } else {
                arrivals = new PoissonArrivals(schedule.rate(at), stepStart, new SplittableRandom(nextId * 31L + at));
                LOG.info("{} {} of {}: {} orders/s (began {} ms ago); the step before left {} arrivals unemitted", STEP_LOG,
                    at + 1, schedule.steps(), schedule.rate(at), sinceStepStartMillis, unemitted);
            }
        }
        if (arrivals != null) {
            emitDue(now);
        }
    }

    private void emitDue(long now) {
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
        Values order = new Values(nextId, random.nextDouble(-180, 180), random.nextDouble(-90, 90), emitMicros);
        if (reliable) {
            collector.emit(order, nextId);
        } else {
            collector.emit(order);
        }
        nextId++;
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
