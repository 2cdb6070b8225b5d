package io.whale.multicast.control;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What stalled children owed when their frames were settled without their credit: a child that was only slow still
 * sends that credit, later, and it is taken for what was settled ({@link #take}), not for the frames the child is sent
 * after. Pure bookkeeping, per key (a child, or a child and a source's launch); not thread safe: its owner's lock guards it.
 *
 * @param <K> whom the credit comes from
 */
public final class LateCredit<K> {
    private final Map<K, Long> owed = new HashMap<>();

    /** {@code key} was settled owing {@code tuples}, whose credit may still come. */
    public void owe(K key, long tuples) {
        if (tuples > 0) {
            owed.merge(key, tuples, Long::sum);
        }
    }

    /** Takes up to {@code tuples} of a credit from {@code key} for what was settled; returns how many it took. */
    public int take(K key, int tuples) {
        Long late = owed.get(key);
        if (late == null) {
            return 0;
        }
        int taken = (int) Math.min(late, tuples);
        if (taken == late) {
            owed.remove(key);
        } else {
            owed.put(key, late - taken);
        }
        return taken;
    }

    /** The keys {@code gone} names will send no late credit (their connection closed). */
    public void forget(Predicate<K> gone) {
        owed.keySet().removeIf(gone);
    }
}
