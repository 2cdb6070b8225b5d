package io.whale.multicast.sim;

import io.whale.multicast.MulticastTree;
import io.whale.multicast.SwitchPlan;
import io.whale.multicast.SwitchingPlanner;
import io.whale.multicast.control.ControlEvents;
import io.whale.multicast.control.ControlReading;
import io.whale.multicast.control.Decision;
import io.whale.multicast.control.Direction;
import io.whale.multicast.control.LiveControl;
import io.whale.multicast.control.SwitchRequest;
import io.whale.multicast.export.LiveStatistics;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A deterministic discrete-event simulation of one source multicasting through a relay tree.
 *
 * <p>Model: tuples arrive at the source as a Poisson process of rate λ(t). Every node is a FIFO server with a
 * transfer queue of capacity Q; a node with d children spends d·t_e on a tuple and its k-th child receives the
 * tuple k·t_e (plus the wire latency) after the node started on it. A tuple arriving at a full source queue is
 * dropped; one arriving at a full relay queue still reaches that relay but not its subtree. The source is read as
 * a worker reads it, by the control law the workers run ({@link LiveControl}: every 10 ms, or every Δt if that is
 * shorter; there are no frame windows here, so no frame waits for credit and no child stalls). With the controller
 * on, the switches it asks for are turned into moves by the {@link SwitchingPlanner}, and the source emits nothing
 * for T_switch (the paper's Theorem 4 setting) before the new tree carries the next tuple; a fixed tree only
 * reports the control's monitors.
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

    private final LiveControl control;
    private final boolean reshaped;
    private final SwitchingPlanner planner = new SwitchingPlanner();
    private final List<SwitchTracker> switches = new ArrayList<>();
    private SwitchTracker activeSwitch;
    private long switchEnd = Long.MIN_VALUE;
    private int degree;
    private boolean landingToReport;
    private long arrivalsSinceRead;
    private long emitNanosSinceRead;
    private long emitFramesSinceRead;
    private long framesSent;

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
        this.reshaped = config.controller() != null;
        this.control = new LiveControl(config.liveControl(), 0, ControlEvents.NONE);
        if (fixedTree != null && (reshaped || fixedTree.destinations() != config.destinations())) {
            throw new IllegalArgumentException("a hand-made tree needs n destinations and no controller");
        }
        this.degree = config.initialMaxOutDegree();
        install(fixedTree != null ? fixedTree : config.structure().builder(degree).build(config.destinations()));
        this.initialSourceDegree = tree.sourceOutDegree();
    }

    public static SimulationResult run(SimulationConfig config) {
        return new MulticastSimulator(config, null).run();
    }

    SimulationResult run() {
        SplittableRandom random = new SplittableRandom(config.seed());
        long end = config.durationNanos();
        long nextArrival = nextArrival(random, 0);
        long readEvery = control.config().readEveryNanos();
        long nextRead = readEvery;
        long nextSample = config.monitorIntervalNanos();
        int samples = (int) (end / config.monitorIntervalNanos());
        double[] sampleSeconds = new double[samples];
        int[] sampleLength = new int[samples];
        int[] sampleDegree = new int[samples];
        int sampleCount = 0;
        while (Math.min(nextArrival, nextRead) < end) {
            if (nextArrival < nextRead) {
                advanceSource(nextArrival);
                arrive(nextArrival);
                advanceSource(nextArrival);
                nextArrival = nextArrival(random, nextArrival);
            } else {
                advanceSource(nextRead);
                boolean sample = nextRead >= nextSample;
                if (sample) {
                    onSample(nextRead);
                    sampleSeconds[sampleCount] = nextRead * 1e-9;
                    sampleLength[sampleCount] = queueSize;
                    sampleDegree[sampleCount] = tree.sourceOutDegree();
                    sampleCount++;
                    nextSample += config.monitorIntervalNanos();
                }
                onRead(nextRead);
                nextRead += readEvery;
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
        arrivalsSinceRead++;
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
            int children = tree.sourceOutDegree();
            emitNanosSinceRead += children * emit;
            emitFramesSinceRead += children;
            framesSent += children;
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

    /** Once per Δt: the degree and the queue as the result reports them. */
    private void onSample(long now) {
        bucketDegree[bucket(now)] = tree.sourceOutDegree();
        if (reshaped && now >= switchEnd && queueSize < config.controller().waterline()) {
            for (SwitchTracker s : switches) {
                if (s.backUnderWaterlineNanos < 0) {
                    s.backUnderWaterlineNanos = now - s.decidedAt;
                }
            }
        }
    }

    /** The source read as a worker reads it; the switch the control asks for is taken when the tree is reshaped. */
    private void onRead(long now) {
        boolean switching = now < switchEnd;
        long landed = !switching && landingToReport ? activeSwitch.delay : -1;
        landingToReport &= switching;
        int children = tree.sourceOutDegree();
        SwitchRequest request = control.read(new ControlReading(now, config.destinations(), children,
                config.destinations(), arrivalsSinceRead, queueSize, 0, 0, framesSent, emitNanosSinceRead,
                emitFramesSinceRead, false, ControlReading.NO_CREDIT_OWED, degree, switching, landed));
        arrivalsSinceRead = 0;
        emitNanosSinceRead = 0;
        emitFramesSinceRead = 0;
        if (reshaped && request != null) {
            startSwitch(request.decision(), now);
        }
    }

    private void startSwitch(Decision decision, long now) {
        SwitchPlan plan = planner.plan(tree, decision.toMaxOutDegree());
        degree = decision.toMaxOutDegree();
        landingToReport = true;
        long delay = config.switchFixedNanos() + plan.moves().size() * config.switchPerMoveNanos();
        switchEnd = Math.max(sourceFree, now) + delay;
        sourceFree = switchEnd;
        double trueRate = config.rate().rateAt(now);
        double boundNanos = trueRate > 0 ? (capacity - queueSize) / trueRate * 1e9 : Double.POSITIVE_INFINITY;
        SwitchTracker tracker = new SwitchTracker(now, decision, plan.moves().size(), switchEnd - now, queueSize,
                trueRate, control.stream().rate(), boundNanos);
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
                        capacity, control.queue(), control.stream(), droppedAtSource),
                new SimulationResult.Series(bucketSeconds, starts, input, throughput, latency, bucketDegree.clone()),
                new SimulationResult.QueueTrace(Arrays.copyOf(sampleSeconds, count),
                        Arrays.copyOf(sampleLength, count), Arrays.copyOf(sampleDegree, count)),
                records);
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
