package io.whale.multicast.sim;

import io.whale.multicast.MulticastTree;
import io.whale.multicast.SwitchPlan;
import io.whale.multicast.SwitchingPlanner;
import io.whale.multicast.control.ControllerConfig;
import io.whale.multicast.control.Decision;
import io.whale.multicast.control.Direction;
import io.whale.multicast.control.MulticastController;
import io.whale.multicast.export.LiveStatistics;
import io.whale.multicast.monitor.NanoClock;
import io.whale.multicast.monitor.QueueMonitor;
import io.whale.multicast.monitor.StreamMonitor;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * A deterministic discrete-event simulation of one source multicasting through a relay tree.
 *
 * <p>Model: tuples arrive at the source as a Poisson process of rate λ(t). Every node is a FIFO server with a
 * transfer queue of capacity Q; a node with d children spends d·t_e on a tuple and its k-th child receives the
 * tuple k·t_e (plus the wire latency) after the node started on it. A tuple arriving at a full source queue is
 * dropped; one arriving at a full relay queue still reaches that relay but not its subtree. With the controller
 * on, the monitors are sampled every Δt, the controller's decisions are turned into moves by the
 * {@link SwitchingPlanner}, and the source emits nothing for T_switch (the paper's Theorem 4 setting) before the
 * new tree carries the next tuple.
 *
 * <p>Because every server is FIFO with deterministic service, a tuple's whole journey through the relays can be
 * computed when the source starts on it (each relay keeps the time it becomes free); only the source needs an
 * event loop. Same config, same seed: same result.
 */
public final class MulticastSimulator {
    private final SimulationConfig config;
    private final long emit;
    private final int capacity;

    private MulticastTree tree;
    private int[] order;
    private int[] parentOf;
    private int[] slot;
    private long[] service;
    private final long[] relayFree;
    private final long[] startedAt;
    private final boolean[] cutOff;

    private final long[] sourceQueue;
    private int queueHead;
    private int queueSize;
    private long sourceFree;

    private final Histogram latencies = new Histogram(3_600_000_000_000L, 3);
    private long arrived;
    private long delivered;
    private long deliveredInRun;
    private long droppedAtSource;
    private long partial;

    private final int initialSourceDegree;
    private final int buckets;
    private final long[] bucketArrivals;
    private final long[] bucketDelivered;
    private final long[] bucketLatencySum;
    private final long[] bucketLatencyCount;
    private final int[] bucketDegree;

    private final SimClock clock = new SimClock();
    private final QueueMonitor queueMonitor;
    private final StreamMonitor streamMonitor;
    private final MulticastController controller;
    private final SwitchingPlanner planner = new SwitchingPlanner();
    private final List<SwitchTracker> switches = new ArrayList<>();
    private SwitchTracker activeSwitch;
    private long switchEnd = Long.MIN_VALUE;

    /** @param fixedTree a hand-made tree to run instead of the configured structure (tests use odd shapes), or null */
    MulticastSimulator(SimulationConfig config, MulticastTree fixedTree) {
        this.config = config;
        this.emit = config.emitNanos();
        this.capacity = config.queueCapacity();
        int nodes = config.destinations() + 1;
        this.relayFree = new long[nodes];
        this.startedAt = new long[nodes];
        this.cutOff = new boolean[nodes];
        this.sourceQueue = new long[capacity];
        this.buckets = (int) ((config.durationNanos() + config.bucketNanos() - 1) / config.bucketNanos());
        this.bucketArrivals = new long[buckets];
        this.bucketDelivered = new long[buckets];
        this.bucketLatencySum = new long[buckets];
        this.bucketLatencyCount = new long[buckets];
        this.bucketDegree = new int[buckets];
        this.queueMonitor = new QueueMonitor(() -> queueSize, clock, 0.5);
        this.streamMonitor = new StreamMonitor(clock, config.rateAlpha(), 4.0);
        ControllerConfig cc = config.controller();
        this.controller = cc == null ? null : new MulticastController(cc, config.initialMaxOutDegree());
        if (fixedTree != null && (controller != null || fixedTree.destinations() != config.destinations())) {
            throw new IllegalArgumentException("a hand-made tree needs n destinations and no controller");
        }
        int initialDegree = controller == null ? config.initialMaxOutDegree() : controller.maxOutDegree();
        install(fixedTree != null ? fixedTree : config.structure().builder(initialDegree).build(config.destinations()));
        this.initialSourceDegree = tree.sourceOutDegree();
    }

    public static SimulationResult run(SimulationConfig config) {
        return new MulticastSimulator(config, null).run();
    }

    SimulationResult run() {
        SplittableRandom random = new SplittableRandom(config.seed());
        long end = config.durationNanos();
        long nextArrival = nextArrival(random, 0);
        long nextSample = config.monitorIntervalNanos();
        int samples = (int) (end / config.monitorIntervalNanos());
        double[] sampleSeconds = new double[samples];
        int[] sampleLength = new int[samples];
        int[] sampleDegree = new int[samples];
        int sampleCount = 0;
        while (Math.min(nextArrival, nextSample) < end) {
            if (nextArrival < nextSample) {
                advanceSource(nextArrival);
                arrive(nextArrival);
                advanceSource(nextArrival);
                nextArrival = nextArrival(random, nextArrival);
            } else {
                advanceSource(nextSample);
                onSample(nextSample);
                sampleSeconds[sampleCount] = nextSample * 1e-9;
                sampleLength[sampleCount] = queueSize;
                sampleDegree[sampleCount] = tree.sourceOutDegree();
                sampleCount++;
                nextSample += config.monitorIntervalNanos();
            }
        }
        advanceSource(end);
        return result(sampleSeconds, sampleLength, sampleDegree, sampleCount);
    }

    private long nextArrival(SplittableRandom random, long from) {
        RateProfile profile = config.rate();
        long t = from;
        while (t < config.durationNanos()) {
            double rate = profile.rateAt(t);
            long change = profile.nextChangeAfter(t);
            if (rate > 0) {
                long gap = (long) Math.ceil(-Math.log(1 - random.nextDouble()) / rate * 1e9);
                if (gap < change - t) {
                    return t + gap;
                }
            }
            // Poisson arrivals are memoryless: restart the draw at the step with the new rate.
            t = change;
        }
        return Long.MAX_VALUE;
    }

    private void arrive(long now) {
        arrived++;
        bucketArrivals[bucket(now)]++;
        streamMonitor.recordArrival();
        if (queueSize >= capacity) {
            droppedAtSource++;
            if (activeSwitch != null && now < switchEnd) {
                activeSwitch.dropped++;
            }
            return;
        }
        sourceQueue[(queueHead + queueSize) % capacity] = now;
        queueSize++;
        if (activeSwitch != null && now < switchEnd) {
            activeSwitch.peakQueue = Math.max(activeSwitch.peakQueue, queueSize);
        }
    }

    /** Starts every queued tuple the source can start by {@code now}. */
    private void advanceSource(long now) {
        while (queueSize > 0) {
            long arrival = sourceQueue[queueHead];
            long start = Math.max(sourceFree, arrival);
            if (start > now) {
                return;
            }
            queueHead = (queueHead + 1) % capacity;
            queueSize--;
            int degree = tree.sourceOutDegree();
            queueMonitor.recordEmit(degree * emit, degree);
            sourceFree = start + service[MulticastTree.SOURCE];
            multicast(arrival, start);
        }
    }

    /** Pushes one tuple the source starts at {@code start} through the relays. */
    private void multicast(long arrival, long start) {
        startedAt[MulticastTree.SOURCE] = start;
        long last = start;
        boolean complete = true;
        for (int v : order) {
            int p = parentOf[v];
            if (cutOff[p]) {
                cutOff[v] = true;
                complete = false;
                continue;
            }
            long received = startedAt[p] + slot[v] * emit + config.hopNanos();
            last = Math.max(last, received);
            cutOff[v] = false;
            long work = service[v];
            if (work == 0) {
                continue;
            }
            long begin = Math.max(received, relayFree[v]);
            // A FIFO server with deterministic work is busy from `received` to `begin`, so this many tuples wait.
            long waiting = begin > received ? (begin - received + work - 1) / work - 1 : 0;
            if (waiting >= capacity) {
                cutOff[v] = true;
                continue;
            }
            startedAt[v] = begin;
            relayFree[v] = begin + work;
        }
        if (!complete) {
            partial++;
            return;
        }
        delivered++;
        if (last < config.durationNanos()) {
            deliveredInRun++;
        }
        long latency = last - arrival;
        latencies.recordValue(latency);
        int arrivalBucket = bucket(arrival);
        bucketLatencySum[arrivalBucket] += latency;
        bucketLatencyCount[arrivalBucket]++;
        bucketDelivered[bucket(last)]++;
    }

    private void onSample(long now) {
        clock.now = now;
        queueMonitor.sample();
        streamMonitor.tick();
        bucketDegree[bucket(now)] = tree.sourceOutDegree();
        if (controller != null && now >= switchEnd && queueSize < config.controller().waterline()) {
            for (SwitchTracker s : switches) {
                if (s.backUnderWaterlineNanos < 0) {
                    s.backUnderWaterlineNanos = now - s.decidedAt;
                }
            }
        }
        if (controller == null || now < switchEnd) {
            return;
        }
        Optional<Decision> decision = controller.onInterval(queueMonitor, streamMonitor, false);
        decision.ifPresent(d -> startSwitch(d, now));
    }

    private void startSwitch(Decision decision, long now) {
        SwitchPlan plan = planner.plan(tree, decision.toMaxOutDegree());
        long delay = config.switchFixedNanos() + plan.moves().size() * config.switchPerMoveNanos();
        switchEnd = Math.max(sourceFree, now) + delay;
        sourceFree = switchEnd;
        double trueRate = config.rate().rateAt(now);
        double boundNanos = trueRate > 0 ? (capacity - queueSize) / trueRate * 1e9 : Double.POSITIVE_INFINITY;
        SwitchTracker tracker = new SwitchTracker(now, decision, plan.moves().size(), switchEnd - now, queueSize,
                trueRate, streamMonitor.rate(), boundNanos);
        switches.add(tracker);
        activeSwitch = tracker;
        install(plan.to());
    }

    private void install(MulticastTree next) {
        tree = next;
        int nodes = next.nodeCount();
        order = new int[nodes - 1];
        parentOf = new int[nodes];
        slot = new int[nodes];
        service = new long[nodes];
        int head = 0;
        int tail = 0;
        int[] queue = new int[nodes];
        queue[tail++] = MulticastTree.SOURCE;
        while (head < tail) {
            int p = queue[head++];
            service[p] = next.outDegree(p) * emit;
            for (int k = 0; k < next.outDegree(p); k++) {
                int c = next.child(p, k);
                parentOf[c] = p;
                slot[c] = k + 1;
                order[tail - 1] = c;
                queue[tail++] = c;
            }
        }
    }

    private int bucket(long nanos) {
        return (int) Math.min(buckets - 1, nanos / config.bucketNanos());
    }

    private SimulationResult result(double[] sampleSeconds, int[] sampleLength, int[] sampleDegree, int count) {
        double bucketSeconds = config.bucketNanos() * 1e-9;
        double[] starts = new double[buckets];
        double[] input = new double[buckets];
        double[] throughput = new double[buckets];
        Double[] latency = new Double[buckets];
        int degree = initialSourceDegree;
        for (int b = 0; b < buckets; b++) {
            starts[b] = b * bucketSeconds;
            input[b] = bucketArrivals[b] / bucketSeconds;
            throughput[b] = bucketDelivered[b] / bucketSeconds;
            latency[b] = bucketLatencyCount[b] == 0 ? null : bucketLatencySum[b] / 1e3 / bucketLatencyCount[b];
            degree = bucketDegree[b] == 0 ? degree : bucketDegree[b];
            bucketDegree[b] = degree;
        }
        List<SwitchRecord> records = new ArrayList<>();
        for (SwitchTracker s : switches) {
            records.add(s.toRecord());
        }
        boolean any = latencies.getTotalCount() > 0;
        return new SimulationResult(config.structure().configName(), config.destinations(), emit, capacity,
                arrived, delivered, droppedAtSource, partial, queueSize, deliveredInRun / (config.durationNanos() * 1e-9),
                any ? latencies.getMean() / 1e3 : Double.NaN,
                any ? latencies.getValueAtPercentile(50) / 1e3 : Double.NaN,
                any ? latencies.getValueAtPercentile(99) / 1e3 : Double.NaN,
                any ? latencies.getMaxValue() / 1e3 : Double.NaN,
                tree.sourceOutDegree(), tree,
                LiveStatistics.of(config.durationNanos() / 1_000_000, tree.sourceOutDegree(), config.destinations(),
                        capacity, queueMonitor, streamMonitor, droppedAtSource),
                new SimulationResult.Series(bucketSeconds, starts, input, throughput, latency, bucketDegree.clone()),
                new SimulationResult.QueueTrace(Arrays.copyOf(sampleSeconds, count),
                        Arrays.copyOf(sampleLength, count), Arrays.copyOf(sampleDegree, count)),
                records);
    }

    /** The monitors read simulated time. */
    private static final class SimClock implements NanoClock {
        long now;

        @Override
        public long nanoTime() {
            return now;
        }
    }

    private static final class SwitchTracker {
        final long decidedAt;
        final Decision decision;
        final int moves;
        final long delay;
        final int queueAtDecision;
        final double trueRate;
        final double measuredRate;
        final double boundNanos;
        long dropped;
        int peakQueue;
        long backUnderWaterlineNanos = -1;

        SwitchTracker(long decidedAt, Decision decision, int moves, long delay, int queueAtDecision, double trueRate,
                      double measuredRate, double boundNanos) {
            this.decidedAt = decidedAt;
            this.decision = decision;
            this.moves = moves;
            this.delay = delay;
            this.queueAtDecision = queueAtDecision;
            this.trueRate = trueRate;
            this.measuredRate = measuredRate;
            this.boundNanos = boundNanos;
            this.peakQueue = queueAtDecision;
        }

        SwitchRecord toRecord() {
            Direction direction = decision.direction();
            return new SwitchRecord(decidedAt * 1e-9, direction, decision.fromMaxOutDegree(),
                    decision.toMaxOutDegree(), moves, delay / 1e6, queueAtDecision, trueRate, measuredRate,
                    boundNanos / 1e6, delay < boundNanos, dropped, peakQueue,
                    backUnderWaterlineNanos < 0 ? -1 : backUnderWaterlineNanos / 1e6);
        }
    }
}
