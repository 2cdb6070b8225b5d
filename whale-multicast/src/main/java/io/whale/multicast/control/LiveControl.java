package io.whale.multicast.control;

import io.whale.multicast.NonBlockingTreeBuilder;
import io.whale.multicast.monitor.EmitTimeSamples;
import io.whale.multicast.monitor.NanoClock;
import io.whale.multicast.monitor.QueueFloor;
import io.whale.multicast.monitor.QueueMonitor;
import io.whale.multicast.monitor.StreamMonitor;
import io.whale.multicast.monitor.WaterlineWatch;

/**
 * The live control law of a source's trees, as one state machine: what a worker whose trees are reshaped live runs,
 * and what the simulator runs. It is handed a {@link ControlReading} of the source every
 * {@link LiveControlConfig#readEveryNanos()} and, once an interval has ended, asks for a switch or not.
 *
 * <p>What it decides from: the paper's {@link MulticastController} takes d* from the source's backlog
 * ({@link QueueMonitor}), the rate of tree emits λ ({@link StreamMonitor}) and t_e, the time a frame takes. The
 * backlog is the transfer queue plus what waits for the frame windows (see {@link #backlogTuples}); the controller
 * takes for l the lowest read of the interval ({@link QueueFloor}): a Kafka spout's poll puts hundreds of tuples on
 * the queue at once, which the tree carries away within tens of milliseconds, and read once per interval such a
 * burst looked like an overload. An interval in any of whose reads a frame had found its window full is
 * window-bound: it does not count towards a scale-up, since the tree's round trip, not an idle source, made the
 * queue look short. While frames find a window full read after read, the backlog also counts what arrived meanwhile
 * at least at the rate the source emits ({@link #heldArrivals}).
 *
 * <p>Holds: while a child of the source has owed credit and returned none for
 * {@link LiveControlConfig#stallNanos()} (a worker still starting, or a slow one) the source is held by that child's
 * window, so neither its queue nor its pace says anything about its own link or d*: the controller is not asked,
 * and the t_e samples of the stall are dropped ({@link EmitTimeSamples}). No decision either while a switch drains;
 * one that landed restarts the controller's hold ({@link MulticastController#landed}).
 *
 * <p>A drill ({@link LiveControlConfig#forcedSwitchNanos()} &gt; 0) switches between a chain and the full tree on
 * its own clock instead.
 *
 * <p>Single-threaded: one caller at a time hands it reads; {@link #isDue}, {@link #members()} and the monitors may be
 * read from any thread. Time is what the reads say.
 */
public final class LiveControl {
    private final LiveControlConfig config;
    private final ControlEvents events;
    private final QueueFloor floor = new QueueFloor();
    private final QueueMonitor queue;
    private final StreamMonitor stream;
    private final WaterlineWatch waterline;
    private final EmitTimeSamples emitTimes = new EmitTimeSamples();
    /** The time of the read being handled: the monitors' clock. */
    private long now;
    private volatile long nextReadNanos;
    private long nextIntervalNanos;
    private long nextForcedNanos;
    private MulticastController controller;
    private volatile int members;
    private long sentAtLastRead;
    private long unsentAtLastRead;
    private long lastReadNanos;
    /** How long the last switch drained, for the controller at the next interval (-1: none landed since). */
    private long landedDrainNanos = -1;
    /** When the controller began holding for a stalled child (-1: it is not holding). */
    private long heldSinceNanos = -1;
    private ShapeSwitch.CreditLook<?> look;
    private boolean stalled;
    private boolean windowBoundInInterval;
    /** When the run of reads each of which found that a frame had found a window full began (-1: the last had none). */
    private long windowFullSinceNanos = -1;
    private int heldArrivals;

    public LiveControl(LiveControlConfig config, long nowNanos, ControlEvents events) {
        this.config = config;
        this.events = events;
        this.now = nowNanos;
        NanoClock clock = () -> now;
        this.queue = new QueueMonitor(floor::close, clock, config.rateAlpha());
        this.stream = new StreamMonitor(clock, config.rateAlpha(), config.rateOutlierFactor());
        this.waterline = new WaterlineWatch(config.waterline(), config.waterlineConfirmReads());
        this.nextReadNanos = nowNanos;
        this.nextIntervalNanos = nowNanos;
        this.lastReadNanos = nowNanos;
        this.nextForcedNanos = nowNanos + config.forcedSwitchNanos();
    }

    /** Whether the source is due a read at {@code nowNanos}. */
    public boolean isDue(long nowNanos) {
        return nowNanos - nextReadNanos >= 0;
    }

    /** Takes a read; at the end of an interval, the switch it asks for, or null. */
    public SwitchRequest read(ControlReading reading) {
        now = reading.nowNanos();
        nextReadNanos = now + config.readEveryNanos();
        stream.recordArrivals(reading.emits());
        if (reading.landedDrainNanos() >= 0) {
            landedDrainNanos = reading.landedDrainNanos();
        }
        onRead(reading);
        // a drill's forced switches keep their own clock, which may be shorter than an interval
        if (now - nextIntervalNanos >= 0 || config.forcedSwitchNanos() > 0) {
            nextIntervalNanos = now + config.intervalNanos();
            return onInterval(reading);
        }
        return null;
    }

    private void onRead(ControlReading reading) {
        look = reading.credit();
        boolean windowBound = reading.windowFull();
        windowBoundInInterval |= windowBound;
        heldArrivals = heldArrivals(windowBound);
        stalled = look.longest() != null && look.longest().waitedNanos() >= config.stallNanos();
        recordEmitTime(reading);
        int length = reading.queueLength() + backlogTuples(reading);
        floor.record(length);
        WaterlineWatch.Crossing crossing = waterline.sample(now, length);
        if (crossing != null && crossing.up()) {
            events.aboveWaterline(crossing.length());
        } else if (crossing != null) {
            events.backUnderWaterline(crossing.aboveNanos(), crossing.peak());
        }
    }

    /**
     * What waits besides the transfer queue: while frames wait in the executors (a window is full), those frames
     * (per emit's frames) and what the frame windows hold (tuples in flight, per emit's deliveries), since nothing
     * more leaves until that is credited. Storm parks emits when a window is full, so with a slow link the backlog
     * sits there, not in the transfer queue. While nothing waits, what is in flight is on its way, not queued:
     * counted, it would never let the queue of a lightly loaded tree fall to zero (tuples/s times the credit's round
     * trip), and the controller would never scale up.
     */
    private int backlogTuples(ControlReading reading) {
        long unsent = reading.unsentFrames();
        int waiting = unsent == 0 ? 0
                : (int) (reading.inFlightTuples() / Math.max(1, reading.deliveriesPerEmit())
                        + unsent / Math.max(1, reading.framesPerEmit()));
        return waiting + heldArrivals;
    }

    /**
     * The emits the source was held from making while its frames waited for credit: λ (its emit rate, at most the
     * offered rate) times how long frames have found a window full between every two reads. Storm calls a spout again
     * only once its pending emits are gone, so an emitter held by a window emits, and reads, right after its frames
     * left, when nothing waits: the queue the worker holds looks short exactly then. A frame window sized to its path
     * lets little more than the round trip be in flight, so in an overload, or under a source that emits as fast as
     * it may, this is what grows; a load the tree carries fills a window now and then, not between every two reads.
     */
    private int heldArrivals(boolean windowBound) {
        if (!windowBound) {
            windowFullSinceNanos = -1;
            return 0;
        }
        if (windowFullSinceNanos < 0) {
            windowFullSinceNanos = lastReadNanos;
        }
        double rate = stream.rate();
        return rate > 0 ? (int) Math.min(Integer.MAX_VALUE / 2, rate * (now - windowFullSinceNanos) * 1e-9) : 0;
    }

    /**
     * This read's t_e sample: while frames waited all the time since the last read (the source was busy: its link or
     * its windows bound it) that time over the frames that left, which is what a frame really took; otherwise the
     * time the emits took over the frames they built. Samples are folded in once no child that was waiting for credit
     * when they were taken can still turn out stalled; a stall drops those taken since it began.
     */
    private void recordEmitTime(ControlReading reading) {
        long sent = reading.framesSent();
        long unsent = reading.unsentFrames();
        if (stalled) {
            emitTimes.dropAfter(look.longest().sinceNanos());
        } else if (unsent > 0 && unsentAtLastRead > 0 && sent > sentAtLastRead) {
            emitTimes.add(now, now - lastReadNanos, (int) (sent - sentAtLastRead));
        } else if (reading.emitFrames() > 0) {
            emitTimes.add(now, reading.emitNanos(), (int) reading.emitFrames());
        }
        emitTimes.release(Math.min(now, look.openSinceNanos()), queue::recordEmit);
        sentAtLastRead = sent;
        unsentAtLastRead = unsent;
        lastReadNanos = now;
    }

    private SwitchRequest onInterval(ControlReading reading) {
        boolean windowBound = windowBoundInInterval;
        windowBoundInInterval = false;
        queue.sample();
        stream.tick();
        if (reading.members() > members) {
            members = reading.members();
            controller = new MulticastController(config.controllerConfig(members), effective(reading.degree()));
        }
        if (landedDrainNanos >= 0 && controller != null) {
            controller.landed((int) (landedDrainNanos / config.intervalNanos()));
        }
        landedDrainNanos = -1;
        if (reading.switching()) {
            return null;
        }
        if (config.forcedSwitchNanos() > 0) {
            return forced(reading.degree());
        }
        if (stalled) {
            controller.held();
            events.held(look.longest(), config.intervalNanos(), heldSinceNanos < 0);
            if (heldSinceNanos < 0) {
                heldSinceNanos = now;
            }
            return null;
        }
        if (heldSinceNanos >= 0) {
            events.resumed(now - heldSinceNanos);
            heldSinceNanos = -1;
        }
        return controller.onInterval(queue, stream, windowBound)
                .map(d -> new SwitchRequest(d.toMaxOutDegree(), d.toMaxOutDegree() > d.fromMaxOutDegree(), describe(d), d))
                .orElse(null);
    }

    private SwitchRequest forced(int degree) {
        if (now - nextForcedNanos < 0) {
            return null;
        }
        nextForcedNanos = now + config.forcedSwitchNanos();
        int to = effective(degree) == 1 ? effective(members) : 1;
        return new SwitchRequest(to, to > 1, "forced (" + config.forcedSwitchNanos() / 1_000_000 + " ms)", null);
    }

    private static String describe(Decision d) {
        return String.format("%s: queue %d -> %d, lambda %.0f/s, t_e %.1f us", d.direction(), d.previousLength(),
                d.length(), d.inputRate(), d.emitSeconds() * 1e6);
    }

    /** {@code degree} as an effective out-degree of the largest tree seen. */
    public int effective(int degree) {
        return NonBlockingTreeBuilder.effectiveOutDegree(Math.max(1, members), degree);
    }

    /** n, the members of the largest tree seen (0 before the first interval). */
    public int members() {
        return members;
    }

    public LiveControlConfig config() {
        return config;
    }

    /** The backlog's monitor: l', l and t_e. Thread-safe. */
    public QueueMonitor queue() {
        return queue;
    }

    /** The input rate's monitor: λ. Thread-safe. */
    public StreamMonitor stream() {
        return stream;
    }
}
