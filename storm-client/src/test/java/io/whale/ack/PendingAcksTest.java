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
    private static final long HOLD = 1_000_000_000;

    private final PendingAcks pending = new PendingAcks(DELAY, HOLD, 4);

    @Test
    void shouldSendOneAckCarryingTheXorOfEveryAckOfARootOnceDue() {
        pending.add(9, 100L, 0b0011, 2, 1_000, false);
        pending.add(9, 100L, 0b0101, 3, 2_000, false);
        pending.add(9, 100L, 0b1001, 4, 3_000, false);

        assertEquals(List.of(), drainDue(1_000 + DELAY - 1));
        assertEquals(List.of(new PendingAcks.Combined(9, 100L, 0b1111, 3, 2, 1_000)), drainDue(1_000 + DELAY));
        assertTrue(pending.isEmpty());
    }

    @Test
    void shouldKeepAcksToDifferentAckersOrRootsApartAndLetTheOldestGoFirst() {
        pending.add(9, 100L, 1, 2, 0, false);
        pending.add(8, 100L, 2, 2, 10, false);
        pending.add(9, 101L, 4, 3, 20, false);
        pending.add(9, 100L, 8, 3, 30, false);

        List<PendingAcks.Combined> out = drainDue(20 + DELAY);
        assertEquals(List.of(new PendingAcks.Combined(9, 100L, 9, 2, 2, 0), new PendingAcks.Combined(8, 100L, 2, 1, 2, 10),
            new PendingAcks.Combined(9, 101L, 4, 1, 3, 20)), out);
        assertEquals(Long.MAX_VALUE, pending.nextDueNanos());
    }

    @Test
    void shouldSayWhenTheOldestIsDue() {
        assertEquals(Long.MAX_VALUE, pending.nextDueNanos());
        pending.add(9, 100L, 1, 2, 70, false);
        pending.add(9, 101L, 1, 2, 90, false);
        assertEquals(70 + DELAY, pending.nextDueNanos());
    }

    @Test
    void shouldHandTheRootsPendingAckToAFailAndKeepTheOthers() {
        pending.add(9, 100L, 3, 2, 0, false);
        pending.add(9, 101L, 5, 2, 0, false);

        assertEquals(new PendingAcks.Combined(9, 100L, 3, 1, 2, 0), pending.takeBeforeFail(9, 100L));
        assertNull(pending.takeBeforeFail(9, 100L));
        assertNull(pending.takeBeforeFail(8, 101L));
        assertEquals(1, pending.size());
    }

    @Test
    void shouldRefuseANewRootBeyondCapacityButStillCombineKnownRoots() {
        for (long root = 0; root < 4; root++) {
            assertTrue(pending.add(9, root, 1, 2, 0, false));
        }
        assertFalse(pending.add(9, 4L, 1, 2, 0, false));
        assertTrue(pending.add(9, 3L, 1, 2, 0, false));
        assertEquals(4, pending.size());
    }

    @Test
    void shouldCompleteAnExpectedRootWithItsLastAckAndNotBefore() {
        assertTrue(pending.expect(100L, 3, 0));
        pending.add(9, 100L, 1, 2, 10, false);
        pending.add(9, 100L, 2, 3, 20, false);
        assertNull(pending.takeIfComplete(9, 100L));
        assertEquals(List.of(), drainDue(DELAY * 10), "an expected root waits past the delay");

        pending.add(9, 100L, 4, 4, 30, false);
        assertNull(pending.takeIfComplete(8, 100L), "another acker's");
        assertEquals(new PendingAcks.Combined(9, 100L, 7, 3, 2, 10), pending.takeIfComplete(9, 100L));
        assertTrue(pending.isEmpty());
    }

    @Test
    void shouldLetAnExpectedRootGoWithWhatItHasOnceHeldLongEnoughAndForgetOneNoAckCameFor() {
        pending.expect(100L, 2, 0);
        pending.expect(101L, 1, 5);
        pending.add(9, 100L, 1, 2, 10, false);
        assertEquals(HOLD, pending.nextDueNanos());

        assertEquals(List.of(new PendingAcks.Combined(9, 100L, 1, 1, 2, 10)), drainDue(HOLD + 5));
        assertTrue(pending.isEmpty());
        assertTrue(pending.add(9, 100L, 2, 3, HOLD + 6, false), "a late ack waits the delay like any other");
        assertEquals(HOLD + 6 + DELAY, pending.nextDueNanos());
    }

    @Test
    void shouldKeepAnAckForAnotherAckerOrOneNobodyExpectedApartAndTakeAllOfARootBeforeAFail() {
        pending.expect(100L, 2, 0);
        pending.add(9, 100L, 1, 2, 10, false);
        pending.add(8, 100L, 2, 3, 20, false);
        assertFalse(pending.add(9, 101L, 4, 3, 30, true), "expected only: an unexpected root is refused");
        pending.add(9, 101L, 4, 3, 30, false);
        pending.unexpect(100L, 1);

        assertEquals(new PendingAcks.Combined(9, 100L, 1, 1, 2, 10), pending.takeIfComplete(9, 100L), "one delivery taken back");
        pending.expect(101L, 5, 40);
        pending.add(9, 101L, 8, 4, 50, false);
        assertEquals(new PendingAcks.Combined(9, 101L, 12, 2, 3, 30), pending.takeBeforeFail(9, 101L), "expected and not, in one");
        assertEquals(List.of(new PendingAcks.Combined(8, 100L, 2, 1, 3, 20)), drainDue(20 + DELAY));
    }

    @Test
    void shouldExpectNothingWhenWaitingIsOffAndNothingBeyondCapacity() {
        PendingAcks off = new PendingAcks(DELAY, 0, 4);
        assertFalse(off.expect(100L, 1, 0));
        assertTrue(off.isEmpty());
        for (long root = 0; root < 4; root++) {
            assertTrue(pending.expect(root, 1, 0));
        }
        assertFalse(pending.expect(4L, 1, 0));
    }

    @Test
    void shouldDrainEverythingWhenTheWorkerStops() {
        pending.add(9, 100L, 1, 2, 0, false);
        pending.add(9, 101L, 1, 2, 1_000_000, false);
        List<PendingAcks.Combined> out = new ArrayList<>();
        pending.drainAll(out::add);
        assertEquals(2, out.size());
        assertTrue(pending.isEmpty());
    }

    record Ack(int acker, long root, long value, long at) {
    }

    /**
     * Whatever the acks, their times and what the worker expected, the acker's ledger ends where it would without
     * combining: per (acker, root) the XOR of what left equals the XOR of what came in, and every ack is accounted for once.
     */
    @Property
    void shouldLeaveEveryAckersLedgerWhereTheUncombinedAcksWould(@ForAll("acks") List<Ack> acks, @ForAll("fails") List<Long> failAt,
                                                                 @ForAll("expected") List<Integer> expectedPerRoot) {
        PendingAcks p = new PendingAcks(DELAY, 3 * DELAY, 1_000);
        Map<List<Long>, Long> expected = new HashMap<>();
        Map<List<Long>, Long> seen = new HashMap<>();
        int[] combinedAcks = {0};
        java.util.function.Consumer<PendingAcks.Combined> acker = c -> {
            seen.merge(List.of((long) c.ackerTask(), c.root()), c.xor(), (a, b) -> a ^ b);
            combinedAcks[0] += c.acks();
        };
        for (int root = 0; root < expectedPerRoot.size(); root++) {
            p.expect(root, expectedPerRoot.get(root), 0);
        }
        long now = 0;
        int i = 0;
        for (Ack ack : acks) {
            now += ack.at();
            expected.merge(List.of((long) ack.acker(), ack.root()), ack.value(), (a, b) -> a ^ b);
            assertTrue(p.add(ack.acker(), ack.root(), ack.value(), 2, now, false));
            PendingAcks.Combined complete = p.takeIfComplete(ack.acker(), ack.root());
            if (complete != null) {
                acker.accept(complete);
            }
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
    Arbitrary<List<Integer>> expected() {
        return Arbitraries.integers().between(0, 8).list().ofMaxSize(6);
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
