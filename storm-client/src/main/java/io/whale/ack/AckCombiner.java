package io.whale.ack;

import io.whale.config.WhaleConfig;
import io.whale.config.WhaleConfigValidation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.apache.storm.Config;
import org.apache.storm.daemon.Acker;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.serialization.KryoTupleSerializer;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.AddressedTuple;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.JCQueue;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker's ack combining ({@link WhaleConfig#WOC_ACK_COMBINE}): the acks its executors send to acker tasks wait
 * here, XORed per (acker task, root) in {@link PendingAcks}, and go as one ack per root — a broadcast to the P tasks of
 * a worker costs its acker one ack instead of P, whether the acker is in this worker (its receive queue) or another
 * (the worker's transfer queue). The worker counts the anchored tuples it hands its tasks ({@link #expect}: the WOC
 * dispatcher's frames, the executors' local emits); the ack that completes a root's count goes at once, from the
 * executor that acked, carrying every ack of its worker's tasks (at the latest {@link WhaleConfig#WOC_ACK_COMBINE_WAIT_MS}
 * after the delivery). Any other ack waits at most {@link WhaleConfig#WOC_ACK_COMBINE_DELAY_MS}. A thread of its own
 * sends what is due; it starts with the first ack or delivery, so a topology without acking never has it. Fails, inits
 * and timeout resets go as Storm sends them; a fail first takes out its root's pending ack and has it sent ahead of it
 * by the failing executor. While the acker is under backpressure (a combined ack could not go), acks go the stock way
 * too and wait in their executors' pending emits.
 */
public final class AckCombiner implements AutoCloseable {
    /** Combining off: every call returns at once and nothing is kept. */
    public static final AckCombiner OFF = new AckCombiner();

    /** {@link WhaleConfig#WOC_ACK_COMBINE_DELAY_MS} when unset. */
    static final int DEFAULT_DELAY_MS = 5;
    /** {@link WhaleConfig#WOC_ACK_COMBINE_WAIT_MS} when unset. */
    static final int DEFAULT_WAIT_MS = 1_000;
    /** How many roots may wait at once; beyond it an ack goes the stock way. */
    static final int CAPACITY = 65_536;
    /** How soon the thread tries again to send a combined ack the transfer queue or the acker's backpressure refused. */
    private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final Logger LOG = LoggerFactory.getLogger(AckCombiner.class);

    /** Puts one combined ack into its acker's receive queue (in this worker) or the transfer queue; false when it cannot go now. */
    interface Sender {
        /** @param localQueue the acker's receive queue, null when the acker is in another worker */
        boolean trySend(AddressedTuple ack, JCQueue localQueue);

        /** Publishes what the sends batched. */
        void flush();
    }

    private final PendingAcks pending;
    private final LongSupplier nanoClock;
    private final AckMetrics metrics;
    private final Sender sender;
    private final boolean ownThread;
    /** The combined acks on their way out, oldest first: what the sender refused waits here; the sending thread's alone. */
    private final ArrayDeque<AddressedTuple> outbox = new ArrayDeque<>();
    /** The receive queue of each acker task in this worker, as the executors' transfer found it. */
    private final Map<Integer, JCQueue> localAckers = new ConcurrentHashMap<>();
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean backedUp;
    private volatile boolean closed;
    private volatile GeneralTopologyContext context;
    private volatile Thread thread;
    /** When the thread wakes next ({@link Long#MAX_VALUE}: only when unparked); written under the lock. */
    private long wakeAtNanos = Long.MAX_VALUE;

    private AckCombiner() {
        this(null, null, null, null, false);
    }

    /** @param ownThread false: nothing is sent but by {@link #sendDue} (a test's clock drives it) */
    AckCombiner(PendingAcks pending, LongSupplier nanoClock, AckMetrics metrics, Sender sender, boolean ownThread) {
        this.pending = pending;
        this.nanoClock = nanoClock;
        this.metrics = metrics;
        this.sender = sender;
        this.ownThread = ownThread;
    }

    /**
     * The worker's combiner: {@link #OFF} unless {@link WhaleConfig#WOC_ACK_COMBINE} is on (its default is
     * {@link WhaleConfig#WOC_ENABLED}'s value) and acking is not switched off ({@code topology.acker.executors: 0}).
     */
    public static AckCombiner create(Map<String, Object> topoConf, StormMetricRegistry registry, JCQueue transferQueue,
                                     AtomicBoolean[] remoteBackPressure) {
        if (!isOn(topoConf)) {
            return OFF;
        }
        long delayNanos = TimeUnit.MILLISECONDS.toNanos(
            WhaleConfigValidation.intOr(topoConf, WhaleConfig.WOC_ACK_COMBINE_DELAY_MS, DEFAULT_DELAY_MS));
        long waitNanos = TimeUnit.MILLISECONDS.toNanos(
            WhaleConfigValidation.intOr(topoConf, WhaleConfig.WOC_ACK_COMBINE_WAIT_MS, DEFAULT_WAIT_MS));
        Sender sender = new Sender() {
            private final Set<JCQueue> published = new HashSet<>();
            private KryoTupleSerializer serializer;

            @Override
            public boolean trySend(AddressedTuple ack, JCQueue localQueue) {
                if (localQueue != null) {
                    published.add(localQueue);
                    return localQueue.tryPublish(ack);
                }
                if (remoteBackPressure[ack.dest].get()) {
                    return false;
                }
                if (serializer == null) {
                    serializer = new KryoTupleSerializer(topoConf, ((TupleImpl) ack.getTuple()).getContext());
                }
                return transferQueue.tryPublish(new TaskMessage(ack.dest, serializer.serialize(ack.getTuple())));
            }

            @Override
            public void flush() {
                transferQueue.tryFlush();
                published.forEach(JCQueue::tryFlush);
                published.clear();
            }
        };
        return new AckCombiner(new PendingAcks(delayNanos, waitNanos, CAPACITY), System::nanoTime, new AckMetrics(registry), sender, true);
    }

    /** Whether a topology conf has ack combining on. */
    public static boolean isOn(Map<String, Object> topoConf) {
        if (topoConf == null) {
            return false;
        }
        Object combine = topoConf.get(WhaleConfig.WOC_ACK_COMBINE);
        WhaleConfigValidation.check(WhaleConfig.WOC_ACK_COMBINE, combine);
        Object woc = topoConf.get(WhaleConfig.WOC_ENABLED);
        WhaleConfigValidation.check(WhaleConfig.WOC_ENABLED, woc);
        boolean on = Boolean.TRUE.equals(combine == null ? woc : combine);
        Object ackers = topoConf.get(Config.TOPOLOGY_ACKER_EXECUTORS);
        return on && (ackers == null || ObjectReader.getInt(ackers) > 0);
    }

    /**
     * Takes an ack to combine (ExecutorTransfer, on the executor's thread, for every tuple it transfers).
     *
     * @param localQueue the destination task's receive queue when it is in this worker, else null
     * @return null when the ack is taken; else what to transfer now to the same task, the stock way: {@code addressed}
     *     itself (any other tuple, or an ack that goes the stock way), or the combined ack this one completed
     */
    public AddressedTuple collect(AddressedTuple addressed, JCQueue localQueue) {
        if (pending == null || closed || !(addressed.getTuple() instanceof TupleImpl tuple)
            || !isToAnAcker(tuple, Acker.ACKER_ACK_STREAM_ID)) {
            return addressed;
        }
        // Backed up, only an expected root's acks are taken: the one that completes it leaves from its executor, whose
        // pending emits hold it while the acker is under backpressure, and the others must not wait for it in vain.
        boolean expectedOnly = backedUp;
        long root = tuple.getLong(0);
        long nowNanos = nanoClock.getAsLong();
        PendingAcks.Combined complete;
        boolean wake;
        synchronized (this) {
            if (!pending.add(addressed.dest, root, tuple.getLong(1), tuple.getSourceTask(), nowNanos, expectedOnly)) {
                return addressed;
            }
            complete = pending.takeIfComplete(addressed.dest, root);
            wake = pending.nextDueNanos() < wakeAtNanos;
        }
        metrics.offered();
        if (localQueue != null) {
            localAckers.putIfAbsent(addressed.dest, localQueue);
        }
        if (context == null) {
            context = tuple.getContext();
        }
        if (complete != null) {
            metrics.completed();
            leaving(complete, nowNanos);
            return tupleOf(complete, tuple.getContext());
        }
        startOrWake(wake);
        return null;
    }

    /**
     * Counts an anchored tuple about to be queued for a task of this worker (ExecutorTransfer's local emits): its task owes
     * each of its roots an ack. The delivery must come before the task can ack it, hence before the tuple is queued.
     *
     * @return whether it was counted; if the tuple cannot be queued after all, pass it to {@link #unexpect}
     */
    public boolean expect(AddressedTuple addressed) {
        if (pending == null || !(addressed.getTuple() instanceof TupleImpl tuple) || tuple.getMessageId().getAnchorsToIds().isEmpty()) {
            return false;
        }
        return count(tuple.getMessageId().getAnchorsToIds().keySet(), 1);
    }

    /** Takes back what {@link #expect} counted for a tuple that could not be queued. */
    public void unexpect(AddressedTuple addressed) {
        Map<Long, Long> anchors = addressed.getTuple().getMessageId().getAnchorsToIds();
        synchronized (this) {
            for (Long root : anchors.keySet()) {
                pending.unexpect(root, 1);
            }
        }
    }

    /**
     * Counts {@code tuples} tuples about to be queued for this worker's tasks, each anchored to every one of
     * {@code roots} (the copies of one WOC frame; they are queued, or wait in an overflow, but are never dropped).
     */
    public void expect(Collection<Long> roots, int tuples) {
        if (pending != null && tuples > 0) {
            count(roots, tuples);
        }
    }

    private boolean count(Collection<Long> roots, int tuples) {
        long nowNanos = nanoClock.getAsLong();
        boolean counted = false;
        boolean wake;
        synchronized (this) {
            for (Long root : roots) {
                counted |= pending.expect(root, tuples, nowNanos);
            }
            wake = counted && pending.nextDueNanos() < wakeAtNanos;
        }
        if (counted) {
            startOrWake(wake);
        }
        return counted;
    }

    private void startOrWake(boolean wake) {
        if (!ownThread) {
            return;
        }
        if (started.compareAndSet(false, true)) {
            Thread t = new Thread(this::run, "whale-ack-combiner");
            t.setDaemon(true);
            thread = t;
            t.start();
        } else if (wake) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * For a fail (on the failing executor's thread): the pending ack of its root, to be sent ahead of it the stock way
     * to the same acker, or null.
     */
    public AddressedTuple ackBeforeFail(AddressedTuple addressed) {
        if (pending == null || !(addressed.getTuple() instanceof TupleImpl tuple) || !isToAnAcker(tuple, Acker.ACKER_FAIL_STREAM_ID)) {
            return null;
        }
        PendingAcks.Combined combined;
        synchronized (this) {
            combined = pending.takeBeforeFail(addressed.dest, tuple.getLong(0));
        }
        if (combined == null) {
            return null;
        }
        leaving(combined, nanoClock.getAsLong());
        return tupleOf(combined, tuple.getContext());
    }

    /**
     * Sends what is due at {@code nowNanos} (the refused ones first, in order).
     *
     * @return nanoseconds until something is due, or -1 when nothing waits
     */
    long sendDue(long nowNanos) {
        List<PendingAcks.Combined> due = new ArrayList<>();
        long next;
        synchronized (this) {
            pending.drainDue(nowNanos, due::add);
            next = pending.nextDueNanos();
            wakeAtNanos = next;
        }
        send(due, nowNanos);
        if (backedUp) {
            synchronized (this) {
                wakeAtNanos = nowNanos + RETRY_NANOS;
            }
            return RETRY_NANOS;
        }
        return next == Long.MAX_VALUE ? -1 : Math.max(0, next - nowNanos);
    }

    /** Sends {@code due} after the ones refused before, in order, as far as the sender takes them; the rest waits. */
    private void send(List<PendingAcks.Combined> due, long nowNanos) {
        GeneralTopologyContext ctx = context;
        for (PendingAcks.Combined combined : due) {
            leaving(combined, nowNanos);
            outbox.add(tupleOf(combined, ctx));
        }
        while (!outbox.isEmpty() && sender.trySend(outbox.peek(), localAckers.get(outbox.peek().dest))) {
            outbox.poll();
        }
        sender.flush();
        backedUp = !outbox.isEmpty();
    }

    /** A combined ack is on its way: counted, and the acks folded into it are processed for a tracked topology. */
    private void leaving(PendingAcks.Combined combined, long nowNanos) {
        metrics.sent(combined, nowNanos);
        TrackedTopologyCount.folded(combined.acks() - 1);
    }

    private void run() {
        try {
            while (!closed) {
                long wait = sendDue(nanoClock.getAsLong());
                if (wait < 0) {
                    LockSupport.park(this);
                } else if (wait > 0) {
                    LockSupport.parkNanos(this, wait);
                }
            }
        } catch (RuntimeException | Error e) {
            backedUp = true;  // acks go the stock way from now on
            LOG.error("Ack combining stopped; acks go as Storm sends them from now on", e);
        }
    }

    /**
     * Stops the thread and sends what waits, as far as the transfer queue takes it (the worker is stopping); what cannot
     * go is counted ({@code woc-acks-dropped}) and logged: those trees time out and are replayed, as with any ack a dying
     * worker had not sent.
     */
    @Override
    public void close() {
        if (pending == null) {
            return;
        }
        closed = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join(TimeUnit.SECONDS.toMillis(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        int dropped;
        if (t != null && t.isAlive()) {
            synchronized (this) {
                dropped = pending.size();  // the thread is stuck; what it holds is lost with the worker
            }
        } else {
            List<PendingAcks.Combined> rest = new ArrayList<>();
            synchronized (this) {
                pending.drainAll(rest::add);
            }
            send(rest, nanoClock.getAsLong());
            dropped = outbox.size();
        }
        if (dropped > 0) {
            metrics.dropped(dropped);
            LOG.warn("{} combined ack(s) could not leave the stopping worker; their tuple trees time out and are replayed",
                     dropped);
        }
    }

    /** A task's tuple on the acker's {@code stream}; the acker's own notifications to spouts use the same stream ids. */
    private static boolean isToAnAcker(TupleImpl tuple, String stream) {
        return stream.equals(tuple.getSourceStreamId()) && !Acker.ACKER_COMPONENT_ID.equals(tuple.getSourceComponent());
    }

    private static AddressedTuple tupleOf(PendingAcks.Combined combined, GeneralTopologyContext context) {
        Tuple tuple = new TupleImpl(context, new Values(combined.root(), combined.xor()), context.getComponentId(combined.sourceTask()),
            combined.sourceTask(), Acker.ACKER_ACK_STREAM_ID);
        return new AddressedTuple(combined.ackerTask(), tuple);
    }
}
