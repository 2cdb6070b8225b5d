package io.whale.woc;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import io.whale.flow.EmitDelivery;
import io.whale.flow.FrameWindow;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.apache.storm.Constants;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.metrics2.StormMetricRegistry;

/**
 * Worker-level WOC counters in Storm's metrics registry (component {@code __system}, task -1, like the
 * worker transfer queue's metrics). Ratios are left to the reader: destinations per frame =
 * {@code woc-frame-destinations / woc-frames-sent}, serializations per emitted tuple =
 * {@code woc-serializations / woc-emits}, the mean multicast latency (an emit's frames sent until the last one's credit
 * is back, {@link EmitDelivery}; over the sampled emits, one in 1/{@code topology.stats.sample.rate}) =
 * {@code woc-multicast-us / woc-multicasts-delivered}.
 */
public final class WocMetrics implements EmitDelivery.Sink {
    private final StormMetricRegistry registry;
    private final Counter framesSent;
    private final Counter frameDestinations;
    private final Counter emits;
    private final Counter serializations;
    private final Counter framesReceived;
    private final Counter malformedFrames;
    private final Counter staleFrames;
    private final Counter staleDestinations;
    private final Counter framesHeld;
    private final Counter stalledFrames;
    private final Counter stalledTuples;
    private final Counter bufferedStalledFrames;
    private final Counter bufferedStalledTuples;
    private final Counter multicastsDelivered;
    private final Counter multicastMicros;
    private final LongAdder windowBlockedNanos = new LongAdder();
    private final Map<NodeInfo, Counter> bytesSentTo = new ConcurrentHashMap<>();
    private final Function<NodeInfo, FrameWindow> windows;

    /**
     * Registers the counters; the registry names them with its worker's topology id and port. {@code windows} gives the
     * frame window to a destination worker, for its gauges.
     */
    public WocMetrics(StormMetricRegistry registry, Function<NodeInfo, FrameWindow> windows) {
        this.registry = registry;
        this.windows = windows;
        this.framesSent = counter("woc-frames-sent");
        this.frameDestinations = counter("woc-frame-destinations");
        this.emits = counter("woc-emits");
        this.serializations = counter("woc-serializations");
        this.framesReceived = counter("woc-frames-received");
        this.malformedFrames = counter("woc-frames-malformed");
        this.staleFrames = counter("woc-frames-stale");
        this.staleDestinations = counter("woc-stale-destinations");
        this.framesHeld = counter("woc-frames-held");
        this.stalledFrames = counter("woc-frames-dropped-stalled");
        this.stalledTuples = counter("woc-tuples-dropped-stalled");
        this.bufferedStalledFrames = counter("woc-frames-sent-stalled");
        this.bufferedStalledTuples = counter("woc-tuples-sent-stalled");
        this.multicastsDelivered = counter("woc-multicasts-delivered");
        this.multicastMicros = counter("woc-multicast-us");
        gauge("woc-window-blocked-ms", () -> windowBlockedNanos.sum() / 1_000_000);
    }

    private Counter counter(String name) {
        return registry.counter(name, Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
    }

    /** An emit with several remote destination tasks went through the WOC send path. */
    public void emitBatched() {
        emits.inc();
    }

    /** One tuple serialization, either the shared values of the frames or a per-task stock fallback. */
    public void serialized() {
        serializations.inc();
    }

    /**
     * A frame to {@code worker} left through its window; the first to each worker also registers that window's gauges:
     * {@code woc-window-tuples-to-NODE-PORT} (what it admits now, {@link FrameWindow#sizedCapacity}),
     * {@code woc-window-rtt-us-to-NODE-PORT} (the lowest recent round trip it was sized with, -1 when none) and
     * {@code woc-window-in-flight-to-NODE-PORT} (the tuples sent and not yet credited: at the first two's value with
     * nothing arriving at the destination, credits are not coming back).
     */
    public void frameSent(NodeInfo worker, int destinations, int bytes) {
        framesSent.inc();
        frameDestinations.inc(destinations);
        bytesSentTo.computeIfAbsent(worker, w -> {
            String to = w.get_node() + "-" + w.get_port().iterator().next();
            gauge("woc-window-tuples-to-" + to, () -> (long) windows.apply(w).sizedCapacity());
            gauge("woc-window-rtt-us-to-" + to, () -> windows.apply(w).roundTripMicros());
            gauge("woc-window-in-flight-to-" + to, () -> (long) windows.apply(w).inFlight());
            return counter("woc-bytes-sent-to-" + to);
        }).inc(bytes);
    }

    private void gauge(String name, Gauge<Long> gauge) {
        registry.gauge(name, gauge, Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
    }

    @Override
    public void delivered(long nanos) {
        multicastsDelivered.inc();
        multicastMicros.inc(nanos / 1_000);
    }

    /** A frame could not leave with its emit (window, backpressure or a full queue) and waits in pendingEmits. */
    public void frameHeld() {
        framesHeld.inc();
    }

    /** A frame carrying {@code tuples} was dropped: its destination worker is stalled ({@link CreditStall}). */
    public void frameDroppedStalled(int tuples) {
        stalledFrames.inc();
        stalledTuples.inc(tuples);
    }

    public long tuplesDroppedStalled() {
        return stalledTuples.getCount();
    }

    /**
     * A frame carrying {@code tuples} went beyond its full window to a stalled destination worker, into the transport's
     * buffer ({@code whale.woc.stall.buffer.bytes}): not dropped, but not held for credit either.
     */
    public void frameSentStalled(int tuples) {
        bufferedStalledFrames.inc();
        bufferedStalledTuples.inc(tuples);
    }

    public long tuplesSentStalled() {
        return bufferedStalledTuples.getCount();
    }

    /**
     * A frame left after waiting {@code nanos} for its destination worker's window: frames wait at the head of
     * their executor's pending emits in turn, so the sum is how long the executors' sends were window-bound.
     */
    public void windowBlocked(long nanos) {
        windowBlockedNanos.add(nanos);
    }

    public long windowBlockedNanos() {
        return windowBlockedNanos.sum();
    }

    public void frameReceived() {
        framesReceived.inc();
    }

    public void frameMalformed() {
        malformedFrames.inc();
    }

    /** A frame named {@code destinations} tasks that are not on this worker; their copies were dropped. */
    public void frameStale(int destinations) {
        staleFrames.inc();
        staleDestinations.inc(destinations);
    }

    public long framesSent() {
        return framesSent.getCount();
    }

    public long frameDestinations() {
        return frameDestinations.getCount();
    }

    public long emits() {
        return emits.getCount();
    }

    public long serializations() {
        return serializations.getCount();
    }

    public long framesReceived() {
        return framesReceived.getCount();
    }

    public long malformedFrames() {
        return malformedFrames.getCount();
    }

    public long staleFrames() {
        return staleFrames.getCount();
    }

    public long multicastsDelivered() {
        return multicastsDelivered.getCount();
    }

    public long multicastMicros() {
        return multicastMicros.getCount();
    }

    public long framesHeld() {
        return framesHeld.getCount();
    }

    public long staleDestinations() {
        return staleDestinations.getCount();
    }

    public long bytesSentTo(NodeInfo worker) {
        Counter c = bytesSentTo.get(worker);
        return c == null ? 0 : c.getCount();
    }
}
