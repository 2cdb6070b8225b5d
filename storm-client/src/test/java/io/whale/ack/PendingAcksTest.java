package io.whale.ack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class PendingAcksTest {
    private static final long DELAY = 5_000_000;

    private final PendingAcks pending = new PendingAcks(DELAY, 4);

    @Test
    void shouldSendOneAckCarryingTheXorOfEveryAckOfARootOnceDue() {
        pending.add(9, 100L, 0b0011, 2, 1_000);
        pending.add(9, 100L, 0b0101, 3, 2_000);
        pending.add(9, 100L, 0b1001, 4, 3_000);

        assertEquals(List.of(), drainDue(1_000 + DELAY - 1));
        assertEquals(List.of(new PendingAcks.Combined(9, 100L, 0b1111, 3, 2, 1_000)), drainDue(1_000 + DELAY));
        assertTrue(pending.isEmpty());
    }

    @Test
    void shouldKeepAcksToDifferentAckersOrRootsApartAndLetTheOldestGoFirst() {
        pending.add(9, 100L, 1, 2, 0);
        pending.add(8, 100L, 2, 2, 10);
        pending.add(9, 101L, 4, 3, 20);
        pending.add(9, 100L, 8, 3, 30);

        List<PendingAcks.Combined> out = drainDue(20 + DELAY);
        assertEquals(List.of(new PendingAcks.Combined(9, 100L, 9, 2, 2, 0), new PendingAcks.Combined(8, 100L, 2, 1, 2, 10),
            new PendingAcks.Combined(9, 101L, 4, 1, 3, 20)), out);
        assertEquals(Long.MAX_VALUE, pending.nextDueNanos());
    }

    @Test
    void shouldSayWhenTheOldestIsDue() {
        assertEquals(Long.MAX_VALUE, pending.nextDueNanos());
        pending.add(9, 100L, 1, 2, 70);
        pending.add(9, 101L, 1, 2, 90);
        assertEquals(70 + DELAY, pending.nextDueNanos());
    }

    @Test
    void shouldHandTheRootsPendingAckToAFailAndKeepTheOthers() {
        pending.add(9, 100L, 3, 2, 0);
        pending.add(9, 101L, 5, 2, 0);

        assertEquals(new PendingAcks.Combined(9, 100L, 3, 1, 2, 0), pending.takeBeforeFail(9, 100L));
        assertNull(pending.takeBeforeFail(9, 100L));
        assertNull(pending.takeBeforeFail(8, 101L));
        assertEquals(1, pending.size());
    }

    @Test
    void shouldRefuseANewRootBeyondCapacityButStillCombineKnownRoots() {
        for (long root = 0; root < 4; root++) {
            assertTrue(pending.add(9, root, 1, 2, 0));
        }
        assertFalse(pending.add(9, 4L, 1, 2, 0));
        assertTrue(pending.add(9, 3L, 1, 2, 0));
        assertEquals(4, pending.size());
    }

    @Test
    void shouldDrainEverythingWhenTheWorkerStops() {
        pending.add(9, 100L, 1, 2, 0);
        pending.add(9, 101L, 1, 2, 1_000_000);
        List<PendingAcks.Combined> out = new ArrayList<>();
        pending.drainAll(out::add);
        assertEquals(2, out.size());
        assertTrue(pending.isEmpty());
    }

    record Ack(int acker, long root, long value, long at) {
    }

    /**
     * Whatever the acks and their times, the acker's ledger ends where it would without combining: per (acker, root) the
     * XOR of what left equals the XOR of what came in, and every ack is accounted for once.
     */
    @Property
    void shouldLeaveEveryAckersLedgerWhereTheUncombinedAcksWould(@ForAll("acks") List<Ack> acks, @ForAll("fails") List<Long> failAt) {
        PendingAcks p = new PendingAcks(DELAY, 1_000);
        Map<List<Long>, Long> expected = new HashMap<>();
        Map<List<Long>, Long> seen = new HashMap<>();
        int[] combinedAcks = {0};
        java.util.function.Consumer<PendingAcks.Combined> acker = c -> {
            seen.merge(List.of((long) c.ackerTask(), c.root()), c.xor(), (a, b) -> a ^ b);
            combinedAcks[0] += c.acks();
        };
        long now = 0;
        int i = 0;
        for (Ack ack : acks) {
            now += ack.at();
            expected.merge(List.of((long) ack.acker(), ack.root()), ack.value(), (a, b) -> a ^ b);
            assertTrue(p.add(ack.acker(), ack.root(), ack.value(), 2, now));
            if (i < failAt.size() && failAt.get(i) % 3 == 0) {
                PendingAcks.Combined before = p.takeBeforeFail(ack.acker(), ack.root());
                if (before != null) {
                    acker.accept(before);
                }
            }
            p.drainDue(now, acker);
            i++;
        }
        p.drainAll(acker);
        assertEquals(acks.size(), combinedAcks[0]);
        Map<List<Long>, Long> nonZeroExpected = new HashMap<>(expected);
        nonZeroExpected.values().removeIf(v -> v == 0);
        Map<List<Long>, Long> nonZeroSeen = new HashMap<>(seen);
        nonZeroSeen.values().removeIf(v -> v == 0);
        assertEquals(nonZeroExpected, nonZeroSeen);
    }

    @Provide
    Arbitrary<List<Ack>> acks() {
        return Combinators.combine(Arbitraries.integers().between(8, 9), Arbitraries.longs().between(0, 5),
                Arbitraries.longs(), Arbitraries.longs().between(0, 2 * DELAY))
            .as(Ack::new).list().ofMaxSize(200);
    }

    @Provide
    Arbitrary<List<Long>> fails() {
        return Arbitraries.longs().between(0, 100).list().ofMaxSize(200);
    }

    private List<PendingAcks.Combined> drainDue(long now) {
        List<PendingAcks.Combined> out = new ArrayList<>();
        pending.drainDue(now, out::add);
        return out;
    }
}
