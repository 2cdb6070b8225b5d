package io.whale.relay;

import io.whale.multicast.MulticastTree;
import io.whale.multicast.TreeBuilder;
import io.whale.multicast.export.LiveStatistics;
import io.whale.multicast.monitor.NanoClock;
import java.util.function.IntSupplier;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.metrics2.StormMetricRegistry;

/**
 * The shape of the trees this worker roots, per number of members: {@link #fixed} (one shape per size, epoch 0,
 * nothing counted) or {@link #live} (reshaped as the load changes, {@link LiveShapes}). The send path tells it what
 * it builds and sends; the relay, what was credited and lost.
 */
public abstract class TreeShaper {
    TreeShaper() {
    }

    /** One shape per number of members, from {@code builder}. */
    public static TreeShaper fixed(TreeBuilder builder) {
        return new FixedShapes(builder);
    }

    /** Shapes reshaped live by the controller; {@code transferQueueLength} reads the worker's transfer queue. */
    public static TreeShaper live(ControllerSettings settings, IntSupplier transferQueueLength, NanoClock clock,
                                  StormMetricRegistry registry) {
        return new LiveShapes(settings, transferQueueLength, clock, registry);
    }

    public abstract boolean isLive();

    /**
     * {@code action} runs after each switch has landed, once the trees of the new shape are in use: the subtrees
     * behind the worker's connections changed, and so did the round trips its frame windows are sized by. It runs
     * under the shaper's lock, on whichever thread landed the switch (an executor's or a Netty thread), so it must
     * not call back into the shaper. Set it before the first frame.
     */
    public void whenReshaped(Runnable action) {
    }

    /** The epoch new frames are built for; always 0 when fixed. */
    public int encodingEpoch() {
        return 0;
    }

    /** The tree of {@code members} members in {@code epoch}, or null when that epoch is over (build again). */
    public abstract MulticastTree shape(int epoch, int members);

    /** Counts frames built for {@code epoch}; false when a switch began meanwhile (build them again). */
    public boolean register(int epoch, int frames) {
        return true;
    }

    /** Whether a frame built for {@code epoch} may leave now (completing a drained switch first). */
    public boolean mayLeave(int epoch) {
        return true;
    }

    /** A frame of {@code epoch} carrying {@code tuples} is leaving for {@code child} (before it is handed on). */
    public void sent(int epoch, NodeInfo child, int tuples) {
    }

    /** The frame of {@link #sent} could not be handed on after all. */
    public void cancel(int epoch, NodeInfo child, int tuples) {
    }

    /** Frames already sent go on to {@code child} too, carrying {@code tuples}: a lost child's, sent on below it. */
    public void sentOn(NodeInfo child, int tuples) {
    }

    /** A frame could not leave: its child's window was full. */
    public void windowFull() {
    }

    /** {@code child}'s subtree has frames this worker rooted, carrying {@code tuples}. */
    public void credited(NodeInfo child, int tuples) {
    }

    /** {@code child}'s connection went down: what it was sent is counted lost by the relay, not awaited. */
    public void lost(NodeInfo child) {
    }

    /**
     * {@code child} returned no credit for the stall bound, its connection up: as {@link #lost}, but its late credit for
     * what it owed then is not taken for the frames it is sent after.
     */
    public void stalled(NodeInfo child) {
    }

    /** When an emit along a tree began, for {@link #emitted}; 0 (and no clock read) when the shape is fixed. */
    public long emitStart() {
        return 0;
    }

    /**
     * An emit that began at {@code startNanos} ({@link #emitStart}) went along a tree of {@code members} members:
     * {@code children} frames carrying {@code deliveries} tuples in all, built and handed on (or parked).
     */
    public void emitted(int members, int children, int deliveries, long startNanos) {
    }

    /** d* now, as an effective out-degree of the largest tree; 0 when fixed. */
    public int maxOutDegree() {
        return 0;
    }

    /** What the monitors and the model say now for a tree of {@code members} members; null when fixed. */
    public LiveStatistics statistics(long nowMillis, int members) {
        return null;
    }

    /** The shape for people, as {@code whale multicast} and whale ui show it: never read back. */
    public abstract String describe();
}
