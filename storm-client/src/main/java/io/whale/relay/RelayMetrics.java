package io.whale.relay;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import org.apache.storm.Constants;
import org.apache.storm.metrics2.StormMetricRegistry;

/** Worker-level relay counters (component {@code __system}, task -1, beside {@code woc-*}). */
public final class RelayMetrics {
    private final StormMetricRegistry registry;
    private final Counter framesSent;
    private final Counter framesReceived;
    private final Counter framesForwarded;
    private final Counter duplicates;
    private final Counter stale;
    private final Counter lostTuples;
    private final Counter resentTuples;
    private final Counter sentStalledTuples;
    private final Counter bytesForwarded;
    private final Counter childrenDisconnected;
    private final Counter childrenStalled;
    private final Counter connectsRequested;
    private final Counter repairs;
    private final Counter refused;
    private final Gauge<Long> heldTuples;

    public RelayMetrics(StormMetricRegistry registry, Gauge<Long> heldTuples) {
        this.registry = registry;
        this.framesSent = counter("relay-frames-sent");
        this.framesReceived = counter("relay-frames-received");
        this.framesForwarded = counter("relay-frames-forwarded");
        this.duplicates = counter("relay-duplicates-dropped");
        this.stale = counter("relay-frames-stale");
        this.lostTuples = counter("relay-tuples-lost");
        this.resentTuples = counter("relay-tuples-resent");
        this.sentStalledTuples = counter("relay-tuples-sent-stalled");
        this.bytesForwarded = counter("relay-bytes-forwarded");
        this.childrenDisconnected = counter("relay-children-disconnected");
        this.childrenStalled = counter("relay-children-stalled");
        this.connectsRequested = counter("relay-connects-requested");
        this.repairs = counter("relay-repairs");
        this.refused = counter("relay-frames-refused");
        this.heldTuples = heldTuples;
        registry.gauge("relay-held-tuples", heldTuples, Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
    }

    private Counter counter(String name) {
        return registry.counter(name, Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
    }

    /** A root frame left for a child of the source. */
    public void frameSent() {
        framesSent.inc();
    }

    void frameReceived() {
        framesReceived.inc();
    }

    void frameForwarded(int bytes) {
        framesForwarded.inc();
        bytesForwarded.inc(bytes);
    }

    /** A child's connection went down (a dead or restarting member, seen from its parent). */
    void childDisconnected() {
        childrenDisconnected.inc();
    }

    /** A child returned no credit for the stall bound (a cut-off or wedged member, seen from its parent). */
    void childStalled() {
        childrenStalled.inc();
    }

    /** A frame named a member without a connection here: the worker was asked to refresh its connections now. */
    void connectRequested() {
        connectsRequested.inc();
    }

    /** Frames went to the children of {@code members} that could not be reached, in their place. */
    void repaired(int members) {
        repairs.inc(members);
    }

    void unreachableMembers(Gauge<Long> members) {
        registry.gauge("relay-members-unreachable", members, Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
    }

    /** A frame held before the worker was active was refused when forwarded: its route reached one worker twice. */
    void refused() {
        refused.inc();
    }

    void duplicate() {
        duplicates.inc();
    }

    /** A frame off its source's current stream: an earlier launch's, or a forged one (SequenceFilter). */
    void stale() {
        stale.inc();
    }

    void evictedStreams(Gauge<Long> streams) {
        registry.gauge("relay-streams-evicted", streams, Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
    }

    /** Tuples a child could not be sent, or was sent and lost with its connection. */
    void lost(long tuples) {
        lostTuples.inc(tuples);
    }

    /** Tuples of frames a lost child had not credited, sent on to its children from here (some may be repeats there). */
    void resent(long tuples) {
        resentTuples.inc(tuples);
    }

    /** Tuples sent a stalled member for its own tasks while its children got their frames from here. */
    public void sentStalled(int tuples) {
        sentStalledTuples.inc(tuples);
    }

    public long framesSent() {
        return framesSent.getCount();
    }

    public long framesReceived() {
        return framesReceived.getCount();
    }

    public long framesForwarded() {
        return framesForwarded.getCount();
    }

    public long bytesForwarded() {
        return bytesForwarded.getCount();
    }

    public long childrenDisconnected() {
        return childrenDisconnected.getCount();
    }

    public long childrenStalled() {
        return childrenStalled.getCount();
    }

    public long connectsRequested() {
        return connectsRequested.getCount();
    }

    public long repairs() {
        return repairs.getCount();
    }

    /** Tuples of the frames this worker took and has not credited yet: what it holds for its subtrees. */
    public long heldTuples() {
        return heldTuples.getValue();
    }

    public long framesRefused() {
        return refused.getCount();
    }

    public long lostTuples() {
        return lostTuples.getCount();
    }

    public long resentTuples() {
        return resentTuples.getCount();
    }

    public long sentStalledTuples() {
        return sentStalledTuples.getCount();
    }
}
