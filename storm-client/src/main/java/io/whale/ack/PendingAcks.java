package io.whale.ack;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The acks a worker's tasks have sent to remote acker tasks and that have not left the worker yet, combined per
 * (acker task, root id) by XOR: the acker XORs every ack value of a root into its ledger, so one ack carrying the XOR
 * of several leaves the ledger where those several would have. An entry leaves when it is due, {@code maxDelayNanos}
 * after its first ack, or before a fail of its root (Storm's order: the ack an executor sent before a fail reaches the
 * acker before it). Entries are kept in the order of their first ack, so the due ones are always the oldest.
 *
 * <p>Pure: time is passed in, nothing is sent from here; not thread-safe ({@link AckCombiner} holds the lock).
 */
public final class PendingAcks {
    /** One combined ack: the XOR of {@code acks} ack values of {@code root}, the first sent by {@code sourceTask}. */
    public record Combined(int ackerTask, long root, long xor, int acks, int sourceTask, long firstNanos) {
    }

    private record Key(int ackerTask, long root) {
    }

    private static final class Entry {
        final int sourceTask;
        final long firstNanos;
        long xor;
        int acks;

        Entry(int sourceTask, long firstNanos) {
            this.sourceTask = sourceTask;
            this.firstNanos = firstNanos;
        }
    }

    private final LinkedHashMap<Key, Entry> pending = new LinkedHashMap<>();
    private final long maxDelayNanos;
    private final int capacity;

    /**
     * @param maxDelayNanos how long an ack may wait for others of its root
     * @param capacity      entries at most; {@link #add} refuses an ack of a new root beyond it
     */
    public PendingAcks(long maxDelayNanos, int capacity) {
        if (maxDelayNanos <= 0 || capacity <= 0) {
            throw new IllegalArgumentException("maxDelayNanos and capacity must be positive: " + maxDelayNanos + ", " + capacity);
        }
        this.maxDelayNanos = maxDelayNanos;
        this.capacity = capacity;
    }

    /**
     * Combines one ack into its root's entry, opening it at {@code nowNanos} if there is none.
     *
     * @return false, having kept nothing, when the ack would open an entry beyond the capacity (it goes as Storm sends it)
     */
    public boolean add(int ackerTask, long root, long ackValue, int sourceTask, long nowNanos) {
        Key key = new Key(ackerTask, root);
        Entry entry = pending.get(key);
        if (entry == null) {
            if (pending.size() >= capacity) {
                return false;
            }
            entry = new Entry(sourceTask, nowNanos);
            pending.put(key, entry);
        }
        entry.xor ^= ackValue;
        entry.acks++;
        return true;
    }

    /** Takes the entry of {@code root} for {@code ackerTask} out, to go before a fail of that root; null if there is none. */
    public Combined takeBeforeFail(int ackerTask, long root) {
        Key key = new Key(ackerTask, root);
        Entry entry = pending.remove(key);
        return entry == null ? null : combined(key, entry);
    }

    /** Takes out every entry due at {@code nowNanos}, oldest first. */
    public void drainDue(long nowNanos, Consumer<Combined> out) {
        drain(nowNanos, out);
    }

    /** Takes out every entry, oldest first (the worker is stopping). */
    public void drainAll(Consumer<Combined> out) {
        drain(Long.MAX_VALUE, out);
    }

    /** When the oldest entry is due; {@link Long#MAX_VALUE} when there is none. */
    public long nextDueNanos() {
        if (pending.isEmpty()) {
            return Long.MAX_VALUE;
        }
        return pending.values().iterator().next().firstNanos + maxDelayNanos;
    }

    public boolean isEmpty() {
        return pending.isEmpty();
    }

    public int size() {
        return pending.size();
    }

    private void drain(long nowNanos, Consumer<Combined> out) {
        Iterator<Map.Entry<Key, Entry>> it = pending.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Key, Entry> e = it.next();
            if (nowNanos != Long.MAX_VALUE && nowNanos - e.getValue().firstNanos < maxDelayNanos) {
                return;
            }
            it.remove();
            out.accept(combined(e.getKey(), e.getValue()));
        }
    }

    private static Combined combined(Key key, Entry entry) {
        return new Combined(key.ackerTask(), key.root(), entry.xor, entry.acks, entry.sourceTask, entry.firstNanos);
    }
}
