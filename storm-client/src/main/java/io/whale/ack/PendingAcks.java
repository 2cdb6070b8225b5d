package io.whale.ack;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * The acks a worker's tasks have sent to acker tasks and that have not left the worker yet, combined per (acker task,
 * root id) by XOR: the acker XORs every ack value of a root into its ledger, so one ack carrying the XOR of several
 * leaves the ledger where those several would have.
 *
 * <p>A root whose anchored tuples the worker saw delivered to its tasks ({@link #expect}) is <em>expected</em>: its
 * entry knows how many acks the worker's tasks owe it, and is complete ({@link #takeIfComplete}) when the last of them
 * arrives, so the worker sends one ack for all its tasks as soon as the last one acks; a tree cannot complete before
 * that ack anyway. It leaves at the latest {@code holdNanos} after the first delivery (a task that acks late or never).
 * Any other ack waits at most {@code delayNanos} after the first of its root. Either entry leaves before a fail of its
 * root (Storm's order: the ack an executor sent before a fail reaches the acker before it). Entries are kept in the
 * order they opened, so the due ones are always the oldest of their kind. Whatever is expected, what leaves is only the
 * XOR of acks that arrived: a wrong count changes when an ack leaves, never what the acker computes.
 *
 * <p>Pure: time is passed in, nothing is sent from here; not thread-safe ({@link AckCombiner} holds the lock).
 */
public final class PendingAcks {
    /** One combined ack: the XOR of {@code acks} ack values of {@code root}, the first sent by {@code sourceTask} at {@code firstNanos}. */
    public record Combined(int ackerTask, long root, long xor, int acks, int sourceTask, long firstNanos) {
    }

    private record Key(int ackerTask, long root) {
    }

    /** An entry's acker and source task until its first ack. */
    private static final int NO_TASK = -1;

    private static final class Entry {
        final long openedNanos;
        int ackerTask = NO_TASK;
        int sourceTask = NO_TASK;
        long firstNanos;
        long xor;
        int acks;
        int expected;

        Entry(long openedNanos) {
            this.openedNanos = openedNanos;
        }

        void add(int ackerTask, long ackValue, int sourceTask, long nowNanos) {
            if (acks == 0) {
                this.ackerTask = ackerTask;
                this.sourceTask = sourceTask;
                this.firstNanos = nowNanos;
            }
            xor ^= ackValue;
            acks++;
        }
    }

    /** Acks of roots the worker expects, by root (every ack of a root goes to the same acker task). */
    private final LinkedHashMap<Long, Entry> expected = new LinkedHashMap<>();
    private final LinkedHashMap<Key, Entry> pending = new LinkedHashMap<>();
    private final long delayNanos;
    private final long holdNanos;
    private final int capacity;

    /**
     * @param delayNanos how long an ack may wait for others of its root
     * @param holdNanos  how long the acks of an expected root may wait for the rest, from its first delivery; 0 expects none
     * @param capacity   entries at most; {@link #add} refuses an ack of a new root beyond it
     */
    public PendingAcks(long delayNanos, long holdNanos, int capacity) {
        if (delayNanos <= 0 || holdNanos < 0 || capacity <= 0) {
            throw new IllegalArgumentException("delayNanos and capacity must be positive, holdNanos not negative: " + delayNanos
                                               + ", " + holdNanos + ", " + capacity);
        }
        this.delayNanos = delayNanos;
        this.holdNanos = holdNanos;
        this.capacity = capacity;
    }

    /**
     * Counts {@code count} deliveries of tuples anchored to {@code root} to the worker's tasks: each owes the root an ack.
     *
     * @return whether they were counted (not when expecting is off or the entries are at capacity), to be passed to
     *     {@link #unexpect} if the delivery does not happen after all
     */
    public boolean expect(long root, int count, long nowNanos) {
        if (holdNanos == 0) {
            return false;
        }
        Entry entry = expected.get(root);
        if (entry == null) {
            if (size() >= capacity) {
                return false;
            }
            entry = new Entry(nowNanos);
            expected.put(root, entry);
        }
        entry.expected += count;
        return true;
    }

    /** Takes back {@code count} deliveries {@link #expect} counted for {@code root} (the tuple could not be queued). */
    public void unexpect(long root, int count) {
        Entry entry = expected.get(root);
        if (entry != null) {
            entry.expected -= count;
        }
    }

    /**
     * Combines one ack into its root's entry, opening one at {@code nowNanos} if there is none.
     *
     * @param expectedOnly take the ack only into an expected root's entry
     * @return false, having kept nothing, when the ack would open an entry beyond the capacity or, with
     *     {@code expectedOnly}, its root is not expected (it goes as Storm sends it)
     */
    public boolean add(int ackerTask, long root, long ackValue, int sourceTask, long nowNanos, boolean expectedOnly) {
        Entry entry = expected.get(root);
        if (entry != null && (entry.ackerTask == NO_TASK || entry.ackerTask == ackerTask)) {
            entry.add(ackerTask, ackValue, sourceTask, nowNanos);
            return true;
        }
        if (expectedOnly) {
            return false;
        }
        Key key = new Key(ackerTask, root);
        entry = pending.get(key);
        if (entry == null) {
            if (size() >= capacity) {
                return false;
            }
            entry = new Entry(nowNanos);
            pending.put(key, entry);
        }
        entry.add(ackerTask, ackValue, sourceTask, nowNanos);
        return true;
    }

    /** Takes out the expected entry of {@code root} if every ack it expects has arrived: it can leave now; else null. */
    public Combined takeIfComplete(int ackerTask, long root) {
        Entry entry = expected.get(root);
        if (entry == null || entry.ackerTask != ackerTask || entry.acks < entry.expected) {
            return null;
        }
        expected.remove(root);
        return combined(root, entry);
    }

    /**
     * Takes out what {@code ackerTask} has pending for {@code root}, to go before a fail of that root (the expected and
     * the other acks in one: XOR is all the acker computes); null if there is none.
     */
    public Combined takeBeforeFail(int ackerTask, long root) {
        Entry waiting = expected.get(root);
        if (waiting != null && waiting.ackerTask != ackerTask) {
            waiting = null;
        }
        if (waiting != null) {
            expected.remove(root);
        }
        Entry other = pending.remove(new Key(ackerTask, root));
        if (waiting == null || other == null) {
            Entry one = waiting != null ? waiting : other;
            return one == null ? null : combined(root, one);
        }
        Entry first = waiting.firstNanos - other.firstNanos <= 0 ? waiting : other;
        return new Combined(ackerTask, root, waiting.xor ^ other.xor, waiting.acks + other.acks, first.sourceTask, first.firstNanos);
    }

    /** Takes out every entry due at {@code nowNanos}, oldest first of each kind; an expected root no ack came for is forgotten. */
    public void drainDue(long nowNanos, Consumer<Combined> out) {
        drain(nowNanos, out);
    }

    /** Takes out every entry (the worker is stopping). */
    public void drainAll(Consumer<Combined> out) {
        drain(Long.MAX_VALUE, out);
    }

    /** When the oldest entry is due; {@link Long#MAX_VALUE} when there is none. */
    public long nextDueNanos() {
        long next = Long.MAX_VALUE;
        if (!expected.isEmpty()) {
            next = expected.values().iterator().next().openedNanos + holdNanos;
        }
        if (!pending.isEmpty()) {
            next = Math.min(next, pending.values().iterator().next().openedNanos + delayNanos);
        }
        return next;
    }

    public boolean isEmpty() {
        return expected.isEmpty() && pending.isEmpty();
    }

    public int size() {
        return expected.size() + pending.size();
    }

    private void drain(long nowNanos, Consumer<Combined> out) {
        drain(expected, holdNanos, nowNanos, root -> root, out);
        drain(pending, delayNanos, nowNanos, Key::root, out);
    }

    /** Takes out the entries of {@code entries} open for {@code waitNanos} at {@code nowNanos}; one no ack came for is forgotten. */
    private static <K> void drain(LinkedHashMap<K, Entry> entries, long waitNanos, long nowNanos, ToLongFunction<K> rootOf,
                                  Consumer<Combined> out) {
        Iterator<Map.Entry<K, Entry>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<K, Entry> e = it.next();
            if (nowNanos != Long.MAX_VALUE && nowNanos - e.getValue().openedNanos < waitNanos) {
                return;
            }
            it.remove();
            if (e.getValue().acks > 0) {
                out.accept(combined(rootOf.applyAsLong(e.getKey()), e.getValue()));
            }
        }
    }

    private static Combined combined(long root, Entry entry) {
        return new Combined(entry.ackerTask, root, entry.xor, entry.acks, entry.sourceTask, entry.firstNanos);
    }
}
