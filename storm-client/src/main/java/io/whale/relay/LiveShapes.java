package io.whale.relay;

import io.whale.multicast.MulticastTree;
import io.whale.multicast.NonBlockingTreeBuilder;
import io.whale.multicast.SwitchPlan;
import io.whale.multicast.SwitchingPlanner;
import io.whale.multicast.control.ControlEvents;
import io.whale.multicast.control.ControlReading;
import io.whale.multicast.control.LiveControl;
import io.whale.multicast.control.ShapeSwitch;
import io.whale.multicast.control.SwitchRequest;
import io.whale.multicast.export.LiveStatistics;
import io.whale.multicast.monitor.NanoClock;
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
 * {@code nonblocking} with {@code max.outdegree: auto}: the worker's side of the live control law
 * ({@link LiveControl}, which decides). The executors that emit along trees read the source every
 * {@link io.whale.multicast.control.LiveControlConfig#readEveryNanos()} (whichever emits first after that) and hand
 * the read to the control, so it needs no thread of its own and stops with them; a read is never waited for: an
 * executor that finds another reading goes on. A switch the control asks for is planned here
 * ({@link SwitchingPlanner}) and taken by a {@link ShapeSwitch}, which makes the new shapes take over without
 * reordering anything; what the control saw is logged for operators and counted and timed
 * for readers ({@link ShapeMetrics}: a reader times switches and waterline crossings by the metrics, never the log).
 */
final class LiveShapes extends TreeShaper {
    /** Under TreeShaper's name, which operators' log filters know the lines by. */
    private static final Logger LOG = LoggerFactory.getLogger(TreeShaper.class);

    private final ControllerSettings settings;
    private final LiveControl control;
    private final ShapeSwitch<NodeInfo> shapes = new ShapeSwitch<>(Integer.MAX_VALUE);
    private final Map<Integer, Map<Integer, MulticastTree>> treesByEpoch = new HashMap<>();
    private final SwitchingPlanner planner = new SwitchingPlanner();
    private final NanoClock clock;
    private final ShapeMetrics metrics;
    private final ReentrantLock readLock = new ReentrantLock();
    private final IntSupplier transferQueueLength;
    private final LongAdder emits = new LongAdder();
    private final LongAdder emitNanos = new LongAdder();
    private final LongAdder emitFrames = new LongAdder();
    /** Whether a frame found its child's window full since the last read. */
    private final AtomicBoolean windowFull = new AtomicBoolean();
    /** How long the last switch drained, for the next read (-1: no switch landed since). */
    private final AtomicLong landedDrainNanos = new AtomicLong(-1);
    private SwitchRequest pending;
    /** Told after each flip: the paths behind the root's connections changed. */
    private volatile Runnable reshaped = () -> { };

    LiveShapes(ControllerSettings settings, IntSupplier transferQueueLength, NanoClock clock, StormMetricRegistry registry) {
        this.settings = settings;
        this.clock = clock;
        this.transferQueueLength = transferQueueLength;
        this.metrics = new ShapeMetrics(registry, this, System::currentTimeMillis);
        this.control = new LiveControl(settings.control(), clock.nanoTime(), new Logged());
    }

    @Override
    public boolean isLive() {
        return true;
    }

    @Override
    public void whenReshaped(Runnable action) {
        this.reshaped = action;
    }

    @Override
    public int encodingEpoch() {
        return shapes.encodingEpoch();
    }

    @Override
    public synchronized MulticastTree shape(int epoch, int members) {
        int degree = shapes.degreeOf(epoch);
        return degree < 0 ? null : treesByEpoch.computeIfAbsent(epoch, e -> new HashMap<>())
            .computeIfAbsent(members, n -> new NonBlockingTreeBuilder(degree).build(n));
    }

    @Override
    public boolean register(int epoch, int frames) {
        return shapes.register(epoch, frames);
    }

    @Override
    public boolean mayLeave(int epoch) {
        if (shapes.mayLeave(epoch)) {
            return true;
        }
        flipped(shapes.tryFlip(clock.nanoTime()));
        return shapes.mayLeave(epoch);
    }

    @Override
    public void sent(int epoch, NodeInfo child, int tuples) {
        shapes.sent(epoch, child, tuples);
    }

    @Override
    public void cancel(int epoch, NodeInfo child, int tuples) {
        shapes.cancel(epoch, child, tuples);
    }

    @Override
    public void sentOn(NodeInfo child, int tuples) {
        shapes.sentOn(child, tuples);
    }

    /** The next interval then does not count towards a scale-up (see {@link LiveControl}). */
    @Override
    public void windowFull() {
        // A held frame is retried by its executor again and again: read first, so that the retries do not keep
        // writing the flag's cache line that the reading executor reads.
        if (!windowFull.get()) {
            windowFull.set(true);
        }
    }

    @Override
    public void credited(NodeInfo child, int tuples) {
        flipped(shapes.credited(child, tuples, clock.nanoTime()));
    }

    @Override
    public void lost(NodeInfo child) {
        flipped(shapes.lost(child, clock.nanoTime()));
    }

    @Override
    public void stalled(NodeInfo child) {
        flipped(shapes.stalled(child, clock.nanoTime()));
    }

    @Override
    public long emitStart() {
        return clock.nanoTime();
    }

    /** Reads the source for the control when a read is due, unless another executor is doing so. */
    @Override
    public void emitted(int members, int children, int deliveries, long startNanos) {
        long now = clock.nanoTime();
        emits.increment();
        emitNanos.add(now - startNanos);
        emitFrames.add(children);
        if (control.isDue(now) && readLock.tryLock()) {
            try {
                if (control.isDue(now)) {
                    SwitchRequest request = control.read(read(now, members, children, deliveries));
                    if (request != null) {
                        request(request, now);
                    }
                }
            } finally {
                readLock.unlock();
            }
        }
    }

    private ControlReading read(long now, int members, int children, int deliveries) {
        ShapeSwitch.CreditLook<NodeInfo> look = shapes.lookAtCredit(now);
        return new ControlReading(now, members, children, deliveries, emits.sumThenReset(),
            transferQueueLength.getAsInt(), shapes.unsentFrames(), shapes.inFlightTuples(), shapes.framesSent(),
            emitNanos.sumThenReset(), emitFrames.sumThenReset(), windowFull.getAndSet(false), look, shapes.degree(),
            shapes.switching(), landedDrainNanos.getAndSet(-1));
    }

    /**
     * Starts a switch: the current trees, moved to the new bound by the planner, are the next epoch's (a size not
     * seen yet is built for the bound when first asked for). Holds the lock from the switch's start to its trees,
     * so that no executor builds a frame for the new epoch before they are there.
     */
    private synchronized void request(SwitchRequest request, long now) {
        int from = shapes.encodingEpoch();
        int to = control.effective(request.toDegree());
        if (to == control.effective(shapes.degree()) || !shapes.request(to, now)) {
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
        pending = new SwitchRequest(to, request.up(), request.reason() + ", " + moves + " move" + (moves == 1 ? "" : "s"),
            request.decision());
        flipped(shapes.tryFlip(now));
    }

    private synchronized void flipped(ShapeSwitch.Flip flip) {
        if (flip == null) {
            return;
        }
        treesByEpoch.keySet().removeIf(epoch -> epoch < flip.epoch());
        metrics.switched(flip, pending);
        landedDrainNanos.set(flip.drainNanos());
        LOG.info("Multicast trees, epoch {}: d* {} -> {} ({}); drained in {} ms", flip.epoch(),
            degreeText(flip.fromDegree()), flip.toDegree(), pending.reason(), flip.drainNanos() / 1_000_000);
        reshaped.run();
    }

    private static String degreeText(int degree) {
        return degree == Integer.MAX_VALUE ? "auto" : Integer.toString(degree);
    }

    @Override
    public int maxOutDegree() {
        return control.effective(shapes.degree());
    }

    int epoch() {
        return shapes.encodingEpoch();
    }

    long inFlightTuples() {
        return shapes.inFlightTuples();
    }

    QueueMonitor queue() {
        return control.queue();
    }

    StreamMonitor stream() {
        return control.stream();
    }

    @Override
    public LiveStatistics statistics(long nowMillis, int members) {
        return LiveStatistics.of(nowMillis, maxOutDegree(), members, settings.queueCapacity(), control.queue(),
            control.stream(), 0);
    }

    @Override
    public String describe() {
        return String.format("nonblocking, d* live (Q %d, waterline %d, T_up %s, T_down %s, every %d ms, alpha %s%s)",
            settings.queueCapacity(), settings.waterline(), settings.scaleUpThreshold(), settings.scaleDownThreshold(),
            settings.intervalMs(), settings.rateAlpha(),
            settings.forcedSwitchMs() > 0 ? ", forced switch every " + settings.forcedSwitchMs() + " ms" : "");
    }

    /** What the control saw, logged and counted. */
    private final class Logged implements ControlEvents {
        @Override
        public void held(ShapeSwitch.Waiting<?> stalled, long intervalNanos, boolean first) {
            metrics.held(intervalNanos / 1_000_000, first);
            if (first) {
                LOG.info("Multicast controller holding: {} returned no credit for {} ms with {} tuples in flight to it",
                    RelayTrees.address((NodeInfo) stalled.child()), stalled.waitedNanos() / 1_000_000, stalled.owed());
            }
        }

        @Override
        public void resumed(long heldNanos) {
            LOG.info("Multicast controller resumed after holding for {} ms", heldNanos / 1_000_000);
        }

        @Override
        public void aboveWaterline(int length) {
            metrics.aboveWaterline();
            LOG.info("Multicast queue above the waterline ({}): {} tuples", settings.waterline(), length);
        }

        @Override
        public void backUnderWaterline(long aboveNanos, int peak) {
            metrics.backUnderWaterline(aboveNanos);
            LOG.info("Multicast queue back under the waterline ({}) after {} ms above it (peak {} tuples)",
                settings.waterline(), aboveNanos / 1_000_000, peak);
        }
    }
}
