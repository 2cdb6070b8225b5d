package io.whale.relay;

import io.whale.multicast.MulticastTree;
import io.whale.multicast.NonBlockingTreeBuilder;
import io.whale.multicast.SwitchPlan;
import io.whale.multicast.SwitchingPlanner;
import io.whale.multicast.TreeBuilder;
import io.whale.multicast.control.ControllerConfig;
import io.whale.multicast.control.Decision;
import io.whale.multicast.control.MulticastController;
import io.whale.multicast.export.LiveStatistics;
import io.whale.multicast.monitor.NanoClock;
import io.whale.multicast.monitor.QueueFloor;
import io.whale.multicast.monitor.QueueMonitor;
import io.whale.multicast.monitor.StreamMonitor;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shape of the trees this worker roots, per number of members. <b>Static</b> ({@code binomial}, or
 * {@code nonblocking} with a whole-number d*): one shape per size, epoch 0, nothing counted. <b>Live</b>
 * ({@code nonblocking} with {@code max.outdegree: auto}): the paper's {@link MulticastController} decides d* from
 * the source's backlog ({@link QueueMonitor} on the transfer queue, the frame windows and the parked frames), the
 * rate of tree emits ({@link StreamMonitor}) and t_e, the time a frame takes ({@link #recordEmitTime}); the
 * {@link SwitchingPlanner} moves the current trees to the new bound; and a {@link ShapeSwitch} makes the new shapes
 * take over without reordering anything. The controller holds while a child of the source has owed credit and
 * returned none for {@link #STALL_NANOS} (a worker still starting, or a slow one): the source is then held by that
 * child's window, so neither its queue nor its pace says anything about its own link or d*, and the t_e samples of
 * the stall are dropped ({@link EmitTimeSamples}). It does not scale up from an interval in which a frame found its
 * child's window full ({@link #windowFull}): the tree's round trip, not an idle source, made the queue look short.
 * While frames find a window full read after read, the backlog also counts what arrived meanwhile at least
 * at the rate the source emits ({@link #heldArrivals}): Storm holds an emitter whose frame waits, so an overload's
 * backlog builds up before the source (in the spout, or in Kafka), where no queue of this worker shows it.
 *
 * <p>The executors that emit along trees read the source's backlog every {@link #SAMPLE_NANOS} (whichever emits first
 * after that), and tick the controller once per interval, so it needs no thread of its own and stops with them; a tick
 * is never waited for: an executor that finds another ticking goes on. The controller takes for the queue's length l
 * the lowest the backlog was during the interval ({@link QueueFloor}), and an interval in any of whose reads a frame
 * found its window full as window-bound: a Kafka spout's poll puts hundreds of tuples on the queue at once, which the
 * tree carries away within tens of milliseconds, and read once per interval such a burst looked like an overload.
 */
public final class TreeShaper {
    private static final Logger LOG = LoggerFactory.getLogger(TreeShaper.class);
    private static final int HOLD_INTERVALS = 3;
    private static final int SCALE_UP_CONFIRM_INTERVALS = 3;
    /** How often the backlog is read within an interval (at most: a source that does not emit is not read). */
    private static final long SAMPLE_NANOS = 10 * 1_000_000L;
    /** How long a scale-down keeps the controller from going back at about the rate it was taken at. */
    private static final long FAILURE_MEMORY_NANOS = 10_000 * 1_000_000L;
    /** Scale-downs this close are one cascade under one load. */
    private static final long CASCADE_NANOS = 1_000 * 1_000_000L;
    private static final double RATE_OUTLIER_FACTOR = 4.0;
    /** Intervals the queue must stay under the waterline to be called back under it. */
    private static final int WATERLINE_CONFIRM_INTERVALS = 10;
    /**
     * How long a child of the source may owe credit and return none before the controller holds for it. On the
     * saturated 1 and 2 Mbit/s links of the tests and benchmarks a child's credits came up to 170 ms apart (once
     * 736 ms, in a window-bound chain); workers still starting returned none for 0.4 to 19 s.
     */
    private static final long STALL_NANOS = 500 * 1_000_000L;

    private final TreeBuilder staticBuilder;
    private final ControllerSettings settings;
    private final ShapeSwitch<NodeInfo> shapes;
    private final Map<Integer, Map<Integer, MulticastTree>> treesByEpoch = new HashMap<>();
    private final SwitchingPlanner planner = new SwitchingPlanner();
    private final NanoClock clock;
    private final QueueFloor floor = new QueueFloor();
    private final QueueMonitor queue;
    private final StreamMonitor stream;
    private final ShapeMetrics metrics;
    private final WaterlineWatch waterline;
    private final ReentrantLock tickLock = new ReentrantLock();
    private final IntSupplier transferQueueLength;
    private volatile long nextTickNanos;
    private long nextIntervalNanos;
    private long nextForcedNanos;
    private MulticastController controller;
    private volatile int members;
    private int framesPerEmit;
    private int deliveriesPerEmit;
    private final LongAdder cpuEmitNanos = new LongAdder();
    private final LongAdder cpuEmitFrames = new LongAdder();
    private long sentAtLastTick;
    private long unsentAtLastTick;
    private long lastTickNanos;
    private String pendingReason;
    private boolean pendingUp;
    /** How long the last switch drained, for the controller at the next tick (-1: no switch landed since). */
    private final AtomicLong landedDrainNanos = new AtomicLong(-1);
    /** When the controller began holding for a stalled child (-1: it is not holding). */
    private long heldSinceNanos = -1;
    /** The credit as the last read found it, and whether a child of the source had stalled. */
    private ShapeSwitch.CreditLook<NodeInfo> look;
    private boolean stalled;
    private final EmitTimeSamples emitTimes = new EmitTimeSamples();
    /** Whether a frame found its child's window full since the last tick. */
    private final AtomicBoolean windowFull = new AtomicBoolean();
    /** Whether a frame found its child's window full in this interval. */
    private boolean windowBoundInInterval;
    /** When the run of reads each of which found that a frame had found a window full began (-1: the last one had none). */
    private long windowFullSinceNanos = -1;
    /** {@link #heldArrivals} as of the last tick. */
    private int heldArrivals;
    /** Told after each flip: the paths behind the root's connections changed. */
    private volatile Runnable reshaped = () -> { };

    private TreeShaper(TreeBuilder staticBuilder, ControllerSettings settings, IntSupplier transferQueueLength,
                       NanoClock clock, StormMetricRegistry registry) {
        this.staticBuilder = staticBuilder;
        this.settings = settings;
        this.clock = clock;
        this.shapes = new ShapeSwitch<>(Integer.MAX_VALUE);
        this.transferQueueLength = transferQueueLength;
        this.queue = settings == null ? null : new QueueMonitor(floor::close, clock, settings.rateAlpha());
        this.stream = settings == null ? null : new StreamMonitor(clock, settings.rateAlpha(), RATE_OUTLIER_FACTOR);
        this.metrics = settings == null ? null : new ShapeMetrics(registry, this);
        this.waterline = settings == null ? null : new WaterlineWatch(settings.waterline(), WATERLINE_CONFIRM_INTERVALS);
        long now = clock.nanoTime();
        this.nextTickNanos = now;
        this.nextIntervalNanos = now;
        this.lastTickNanos = now;
        this.nextForcedNanos = settings == null ? 0 : now + settings.forcedSwitchMs() * 1_000_000L;
    }

    /** One shape per number of members, from {@code builder}. */
    public static TreeShaper fixed(TreeBuilder builder) {
        return new TreeShaper(builder, null, null, NanoClock.system(), null);
    }

    /** Shapes reshaped live by the controller; {@code transferQueueLength} reads the worker's transfer queue. */
    public static TreeShaper live(ControllerSettings settings, IntSupplier transferQueueLength, NanoClock clock,
                                  StormMetricRegistry registry) {
        return new TreeShaper(null, settings, transferQueueLength, clock, registry);
    }

    public boolean isLive() {
        return staticBuilder == null;
    }

    /**
     * {@code action} runs after each switch has landed, once the trees of the new shape are in use: the subtrees
     * behind the worker's connections changed, and so did the round trips its frame windows are sized by. It runs
     * under this shaper's lock, on whichever thread landed the switch (an executor's or a Netty thread), so it must
     * not call back into the shaper. Set it before the first frame.
     */
    public void whenReshaped(Runnable action) {
        this.reshaped = action;
    }

    /** The epoch new frames are built for; always 0 when static. */
    public int encodingEpoch() {
        return isLive() ? shapes.encodingEpoch() : 0;
    }

    /** The tree of {@code members} members in {@code epoch}, or null when that epoch is over (build again). */
    public synchronized MulticastTree shape(int epoch, int members) {
        Map<Integer, MulticastTree> trees = treesByEpoch.computeIfAbsent(epoch, e -> new HashMap<>());
        if (!isLive()) {
            return trees.computeIfAbsent(members, staticBuilder::build);
        }
        int degree = shapes.degreeOf(epoch);
        return degree < 0 ? null : trees.computeIfAbsent(members, n -> new NonBlockingTreeBuilder(degree).build(n));
    }

    /** Counts frames built for {@code epoch}; false when a switch began meanwhile (build them again). */
    public boolean register(int epoch, int frames) {
        return !isLive() || shapes.register(epoch, frames);
    }

    /** Whether a frame built for {@code epoch} may leave now (completing a drained switch first). */
    public boolean mayLeave(int epoch) {
        if (!isLive() || shapes.mayLeave(epoch)) {
            return true;
        }
        flipped(shapes.tryFlip(clock.nanoTime()));
        return shapes.mayLeave(epoch);
    }

    /** A frame of {@code epoch} carrying {@code tuples} is leaving for {@code child} (before it is handed on). */
    public void sent(int epoch, NodeInfo child, int tuples) {
        if (isLive()) {
            shapes.sent(epoch, child, tuples);
        }
    }

    /** The frame of {@link #sent} could not be handed on after all. */
    public void cancel(int epoch, NodeInfo child, int tuples) {
        if (isLive()) {
            shapes.cancel(epoch, child, tuples);
        }
    }

    /**
     * A frame could not leave: its child's window was full. The next tick then does not count towards a scale-up
     * (see {@link MulticastController#onInterval(int, int, double, double, boolean)}).
     */
    public void windowFull() {
        // A held frame is retried by its executor again and again: read first, so that the retries do not keep
        // writing the flag's cache line that the ticking executor reads.
        if (isLive() && !windowFull.get()) {
            windowFull.set(true);
        }
    }

    /** {@code child}'s subtree has frames this worker rooted, carrying {@code tuples}. */
    public void credited(NodeInfo child, int tuples) {
        if (isLive()) {
            flipped(shapes.credited(child, tuples, clock.nanoTime()));
        }
    }

    /** {@code child}'s connection went down: what it was sent is counted lost by the relay, not awaited. */
    public void lost(NodeInfo child) {
        if (isLive()) {
            flipped(shapes.lost(child, clock.nanoTime()));
        }
    }

    /** When an emit along a tree began, for {@link #emitted}; 0 (and no clock read) when the shape is fixed. */
    public long emitStart() {
        return isLive() ? clock.nanoTime() : 0;
    }

    /**
     * An emit that began at {@code startNanos} ({@link #emitStart}) went along a tree of {@code members} members:
     * {@code children} frames carrying {@code deliveries} tuples in all, built and handed on (or parked). Reads the
     * backlog at most every {@link #SAMPLE_NANOS} and ticks the controller once an interval has ended, unless another
     * executor is doing so.
     */
    public void emitted(int members, int children, int deliveries, long startNanos) {
        if (!isLive()) {
            return;
        }
        long now = clock.nanoTime();
        stream.recordArrival();
        cpuEmitNanos.add(now - startNanos);
        cpuEmitFrames.add(children);
        if (now - nextTickNanos >= 0 && tickLock.tryLock()) {
            try {
                if (now - nextTickNanos >= 0) {
                    nextTickNanos = now + Math.min(SAMPLE_NANOS, intervalNanos());
                    framesPerEmit = children;
                    deliveriesPerEmit = deliveries;
                    onSample(now);
                    // a drill's forced switches keep their own clock, which may be shorter than an interval
                    if (now - nextIntervalNanos >= 0 || settings.forcedSwitchMs() > 0) {
                        nextIntervalNanos = now + intervalNanos();
                        onInterval(members, now);
                    }
                }
            } finally {
                tickLock.unlock();
            }
        }
    }

    /**
     * The source's backlog in tuples, the queue the controller watches besides the transfer queue: while frames wait
     * in the executors (a window is full), those frames (per emit's frames) and what the frame windows hold (tuples
     * sent along trees and not yet credited, per emit's deliveries), since nothing more leaves until that is credited.
     * Storm parks emits when a window is full, so with a slow link the backlog sits there, not in the transfer queue.
     * While nothing waits, what is in flight is on its way, not queued: counted, it would never let the queue of a
     * lightly loaded tree fall to zero (tuples/s times the credit's round trip), and the controller would never scale up.
     */
    private int backlogTuples() {
        long unsent = shapes.unsentFrames();
        int waiting = unsent == 0 ? 0
            : (int) (shapes.inFlightTuples() / Math.max(1, deliveriesPerEmit) + unsent / Math.max(1, framesPerEmit));
        return waiting + heldArrivals;
    }

    /**
     * The emits the source was held from making while its frames waited for credit: λ (its emit rate, at most the
     * offered rate) times how long frames have found a window full between every two reads. Storm calls a spout again only
     * once its pending emits are gone, so an emitter held by a window emits, and ticks, right after its frames left,
     * when nothing waits: the queue the worker holds looks short exactly then. A frame window sized to its path lets
     * little more than the round trip be in flight, so in an overload, or under a source that emits as fast as it may,
     * this is what grows; a load the tree carries fills a window now and then, not between every two reads.
     */
    private int heldArrivals(boolean windowBound, long now) {
        if (!windowBound) {
            windowFullSinceNanos = -1;
            return 0;
        }
        if (windowFullSinceNanos < 0) {
            windowFullSinceNanos = lastTickNanos;
        }
        double rate = stream.rate();
        return rate > 0 ? (int) Math.min(Integer.MAX_VALUE / 2, rate * (now - windowFullSinceNanos) * 1e-9) : 0;
    }

    /**
     * This read's t_e sample: while frames waited all the time since the last read (the source was busy: its link or
     * its windows bound it) that time over the frames that left, which is what a frame really took; otherwise the
     * time sendAlongTree took over the frames it built. Samples are folded in once no child that was waiting for
     * credit when they were taken can still turn out stalled; a stall drops those taken since it began.
     */
    private void recordEmitTime(long now, ShapeSwitch.CreditLook<NodeInfo> look, boolean stalled) {
        long sent = shapes.framesSent();
        long unsent = shapes.unsentFrames();
        long cpuNanos = cpuEmitNanos.sumThenReset();
        long cpuFrames = cpuEmitFrames.sumThenReset();
        if (stalled) {
            emitTimes.dropAfter(look.longest().sinceNanos());
        } else if (unsent > 0 && unsentAtLastTick > 0 && sent > sentAtLastTick) {
            emitTimes.add(now, now - lastTickNanos, (int) (sent - sentAtLastTick));
        } else if (cpuFrames > 0) {
            emitTimes.add(now, cpuNanos, (int) cpuFrames);
        }
        emitTimes.release(Math.min(now, look.openSinceNanos()), queue::recordEmit);
        sentAtLastTick = sent;
        unsentAtLastTick = unsent;
        lastTickNanos = now;
    }

    private long intervalNanos() {
        return settings.intervalMs() * 1_000_000L;
    }

    /** Reads the backlog and the credit; {@link #stalled} is what this read found. */
    private void onSample(long now) {
        look = shapes.lookAtCredit(now);
        boolean windowBound = windowFull.getAndSet(false);
        windowBoundInInterval |= windowBound;
        heldArrivals = heldArrivals(windowBound, now);
        stalled = look.longest() != null && look.longest().waitedNanos() >= STALL_NANOS;
        recordEmitTime(now, look, stalled);
        int length = transferQueueLength.getAsInt() + backlogTuples();
        floor.record(length);
        watchWaterline(now, length);
    }

    private void onInterval(int emitMembers, long now) {
        boolean windowBound = windowBoundInInterval;
        windowBoundInInterval = false;
        queue.sample();
        stream.tick();
        if (emitMembers > members) {
            members = emitMembers;
            long interval = intervalNanos();
            controller = new MulticastController(new ControllerConfig(members, settings.queueCapacity(),
                settings.waterline(), settings.scaleUpThreshold(), settings.scaleDownThreshold(), HOLD_INTERVALS,
                SCALE_UP_CONFIRM_INTERVALS, (int) Math.max(1, FAILURE_MEMORY_NANOS / interval),
                (int) Math.max(1, CASCADE_NANOS / interval)), effective(shapes.degree()));
        }
        long drained = landedDrainNanos.getAndSet(-1);
        if (drained >= 0 && controller != null) {
            controller.landed((int) (drained / intervalNanos()));
        }
        if (shapes.switching()) {
            return;
        }
        if (settings.forcedSwitchMs() > 0) {
            if (now - nextForcedNanos >= 0) {
                nextForcedNanos = now + settings.forcedSwitchMs() * 1_000_000L;
                int to = effective(shapes.degree()) == 1 ? effective(members) : 1;
                request(to, "forced (" + settings.forcedSwitchMs() + " ms)", to > 1, now);
            }
            return;
        }
        if (stalled) {
            hold(look.longest(), now);
            return;
        }
        resume(now);
        controller.onInterval(queue, stream, windowBound).ifPresent(decision -> request(decision.toMaxOutDegree(),
            describe(decision), decision.toMaxOutDegree() > decision.fromMaxOutDegree(), now));
    }

    /** An interval a stalled child held the source's window: no decision, and the first such interval is logged. */
    private void hold(ShapeSwitch.Waiting<NodeInfo> stalled, long now) {
        controller.held();
        metrics.held(settings.intervalMs());
        if (heldSinceNanos < 0) {
            heldSinceNanos = now;
            LOG.info("Multicast controller holding: {} returned no credit for {} ms with {} tuples in flight to it",
                RelayTrees.address(stalled.child()), stalled.waitedNanos() / 1_000_000, stalled.owed());
        }
    }

    private void resume(long now) {
        if (heldSinceNanos >= 0) {
            LOG.info("Multicast controller resumed after holding for {} ms", (now - heldSinceNanos) / 1_000_000);
            heldSinceNanos = -1;
        }
    }

    /** Logs the source's queue rising above the waterline and how long it took to come back under it. */
    private void watchWaterline(long now, int length) {
        WaterlineWatch.Crossing crossing = waterline.sample(now, length);
        if (crossing == null) {
            return;
        }
        if (crossing.up()) {
            LOG.info("Multicast queue above the waterline ({}): {} tuples", settings.waterline(), crossing.length());
        } else {
            metrics.backUnderWaterline(crossing.aboveNanos());
            LOG.info("Multicast queue back under the waterline ({}) after {} ms above it (peak {} tuples)", settings.waterline(),
                crossing.aboveNanos() / 1_000_000, crossing.peak());
        }
    }

    /**
     * Starts a switch: the current trees, moved to the new bound by the planner, are the next epoch's (a size not
     * seen yet is built for the bound when first asked for). Holds the lock from the switch's start to its trees,
     * so that no executor builds a frame for the new epoch before they are there.
     */
    private synchronized void request(int toDegree, String reason, boolean up, long now) {
        int from = shapes.encodingEpoch();
        int to = effective(toDegree);
        if (to == effective(shapes.degree()) || !shapes.request(to, now)) {
            return;
        }
        Map<Integer, MulticastTree> next = new HashMap<>();
        int moves = 0;
        for (Map.Entry<Integer, MulticastTree> entry : treesByEpoch.getOrDefault(from, Map.of()).entrySet()) {
            SwitchPlan plan = planner.plan(entry.getValue(), to);
            next.put(entry.getKey(), plan.to());
            moves += plan.moves().size();
        }
        treesByEpoch.put(shapes.encodingEpoch(), next);
        pendingReason = reason + ", " + moves + " move" + (moves == 1 ? "" : "s");
        pendingUp = up;
        flipped(shapes.tryFlip(now));
    }

    private synchronized void flipped(ShapeSwitch.Flip flip) {
        if (flip == null) {
            return;
        }
        treesByEpoch.keySet().removeIf(epoch -> epoch < flip.epoch());
        metrics.switched(flip, pendingUp);
        landedDrainNanos.set(flip.drainNanos());
        LOG.info("Multicast trees, epoch {}: d* {} -> {} ({}); drained in {} ms", flip.epoch(),
            degreeText(flip.fromDegree()), flip.toDegree(), pendingReason, flip.drainNanos() / 1_000_000);
        reshaped.run();
    }

    private static String describe(Decision d) {
        return String.format("%s: queue %d -> %d, lambda %.0f/s, t_e %.1f us", d.direction(), d.previousLength(),
            d.length(), d.inputRate(), d.emitSeconds() * 1e6);
    }

    private static String degreeText(int degree) {
        return degree == Integer.MAX_VALUE ? "auto" : Integer.toString(degree);
    }

    private int effective(int degree) {
        return NonBlockingTreeBuilder.effectiveOutDegree(Math.max(1, members), degree);
    }

    /** d* now, as an effective out-degree of the largest tree. */
    public int maxOutDegree() {
        return isLive() ? effective(shapes.degree()) : 0;
    }

    int epoch() {
        return shapes.encodingEpoch();
    }

    @Override
    public String toString() {
        return isLive()
            ? String.format("nonblocking, d* live (Q %d, waterline %d, T_up %s, T_down %s, every %d ms, alpha %s%s)",
                settings.queueCapacity(), settings.waterline(), settings.scaleUpThreshold(), settings.scaleDownThreshold(),
                settings.intervalMs(), settings.rateAlpha(),
                settings.forcedSwitchMs() > 0 ? ", forced switch every " + settings.forcedSwitchMs() + " ms" : "")
            : staticBuilder instanceof NonBlockingTreeBuilder fixed ? "nonblocking, d* " + fixed.maxOutDegree() : "binomial";
    }

    /** What the monitors and the model say now for a tree of {@code members} members; null for a fixed shape. */
    public LiveStatistics statistics(long nowMillis, int members) {
        return isLive() ? LiveStatistics.of(nowMillis, maxOutDegree(), members, settings.queueCapacity(), queue, stream, 0) : null;
    }

    long inFlightTuples() {
        return shapes.inFlightTuples();
    }

    QueueMonitor queue() {
        return queue;
    }

    StreamMonitor stream() {
        return stream;
    }
}
