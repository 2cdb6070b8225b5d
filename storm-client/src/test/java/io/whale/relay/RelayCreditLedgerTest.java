package io.whale.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.relay.RelayCreditLedger.Release;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RelayCreditLedgerTest {
    private static final long ROOT = 100L;
    private static final long OTHER_ROOT = 200L;

    private final RelayCreditLedger<String, String, String> ledger = new RelayCreditLedger<>();

    @Test
    void shouldCreditALeafFrameAtOnce() {
        assertEquals(new Release<>("root", ROOT, 3), ledger.received("root", ROOT, 3, List.of(), new int[0], List.of()));
        assertEquals(0, ledger.heldTuples());
    }

    @Test
    void shouldHoldTheCreditUntilEveryChildCreditedItsShare() {
        assertNull(ledger.received("root", ROOT, 2, List.of("b", "c"), new int[] {4, 1}, List.of("frame 2 to b", "frame 2 to c")));
        assertEquals(7, ledger.heldTuples());
        assertEquals(List.of(), ledger.credited("b", ROOT, 4));
        assertEquals(List.of(new Release<>("root", ROOT, 7)), ledger.credited("c", ROOT, 1));
        assertEquals(0, ledger.heldTuples());
    }

    @Test
    void shouldTellWhichChildrenOweAndWhichParentsWaitForThem() {
        ledger.received("root", ROOT, 1, List.of("b", "c"), new int[] {1, 1}, List.of("frame 3 to b", "frame 3 to c"));
        ledger.received("parent", OTHER_ROOT, 1, List.of("c"), new int[] {2}, List.of("frame 4 to c"));
        ledger.credited("b", ROOT, 1);

        assertFalse(ledger.owes("b"));
        assertTrue(ledger.owes("c"));
        assertEquals(Set.of(new Release<>("root", ROOT, 0), new Release<>("parent", OTHER_ROOT, 0)), ledger.waitingParents());
        ledger.childLost("c");
        assertFalse(ledger.owes("c"));
        assertEquals(Set.of(), ledger.waitingParents());
    }

    @Test
    void shouldTakeAStalledChildsLateCreditForTheFramesSettledWithItNotForItsLaterOnes() {
        ledger.received("root", ROOT, 1, List.of("b"), new int[] {3}, List.of("frame 10 to b"));
        ledger.childStalled("b");
        ledger.received("root", ROOT, 1, List.of("b"), new int[] {3}, List.of("frame 11 to b"));

        assertEquals(List.of(), ledger.credited("b", ROOT, 3), "b, slow, credits frame 10 late: it was settled already");
        assertTrue(ledger.owes("b"), "frame 11 is still owed");
        assertEquals(List.of("frame 11 to b"), ledger.childStalled("b").unsettled(), "and goes on below b if b stalls again");
        ledger.received("root", ROOT, 1, List.of("b"), new int[] {3}, List.of("frame 12 to b"));
        assertEquals(List.of(new Release<>("root", ROOT, 4)), ledger.credited("b", ROOT, 6),
            "frame 11's late credit taken for it, then frame 12's own");
    }

    @Test
    void shouldTakeNoLateCreditFromAChildWhoseConnectionClosed() {
        ledger.received("root", ROOT, 1, List.of("b"), new int[] {3}, List.of("frame 13 to b"));
        ledger.childStalled("b");
        ledger.childLost("b");
        ledger.received("root", ROOT, 1, List.of("b"), new int[] {3}, List.of("frame 14 to b"));

        assertEquals(List.of(new Release<>("root", ROOT, 4)), ledger.credited("b", ROOT, 3),
            "a new connection's credit is for the frames sent on it");
    }

    @Test
    void shouldForgetAFrameNotSentAfterAllSoThatNoCreditIsTakenForIt() {
        String first = new String("frame 9 to b");
        String unsent = new String("frame 9 to b");
        ledger.received("root", ROOT, 0, List.of("b"), new int[] {2}, List.of(first));
        ledger.received("root", ROOT, 0, List.of("b"), new int[] {2}, List.of(unsent));

        ledger.withdraw("b", ROOT, unsent);

        assertEquals(2, ledger.heldTuples());
        assertEquals(List.of(first), ledger.childLost("b").unsettled(), "the copy that was sent, told by identity");
    }

    @Test
    void shouldApplyAChildsCreditToItsOldestFramesFirstAcrossMessageBoundaries() {
        ledger.received("root", ROOT, 1, List.of("b"), new int[] {3}, List.of("frame 5 to b"));
        ledger.received("root", ROOT, 1, List.of("b"), new int[] {3}, List.of("frame 6 to b"));
        ledger.received("root", ROOT, 1, List.of("b"), new int[] {3}, List.of("frame 7 to b"));
        assertEquals(List.of(new Release<>("root", ROOT, 4)), ledger.credited("b", ROOT, 5));
        assertEquals(List.of(new Release<>("root", ROOT, 4), new Release<>("root", ROOT, 4)), ledger.credited("b", ROOT, 4));
        assertEquals(0, ledger.heldTuples());
    }

    @Test
    void shouldNeverCreditOneSourcesFramesWithAnotherSourcesCredit() {
        ledger.received("root-a", ROOT, 1, List.of("b"), new int[] {2}, List.of("frame 8 to b"));
        ledger.received("root-b", OTHER_ROOT, 1, List.of("b"), new int[] {2}, List.of("frame 9 to b"));
        assertEquals(List.of(new Release<>("root-b", OTHER_ROOT, 3)), ledger.credited("b", OTHER_ROOT, 2));
        assertEquals(3, ledger.heldTuples());
    }

    @Test
    void shouldIgnoreCreditForNothingOutstanding() {
        assertEquals(List.of(), ledger.credited("b", ROOT, 10));
        ledger.received("root", ROOT, 1, List.of("b"), new int[] {2}, List.of("frame 10 to b"));
        assertEquals(List.of(new Release<>("root", ROOT, 3)), ledger.credited("b", ROOT, 2));
    }

    @Test
    void shouldReleaseWhatALostChildHeldAndCountItsTuplesAsLost() {
        ledger.received("root", ROOT, 1, List.of("b", "c"), new int[] {4, 2}, List.of("frame 1 to b", "frame 1 to c"));
        ledger.received("root", OTHER_ROOT, 1, List.of("b"), new int[] {4}, List.of("frame 2 to b"));
        assertEquals(List.of(), ledger.credited("c", ROOT, 2));
        RelayCreditLedger.Settled<String, String> settled = ledger.childLost("b");
        assertEquals(8, settled.lostTuples());
        assertEquals(2, settled.releases().size());
        assertEquals(Set.of("frame 1 to b", "frame 2 to b"), Set.copyOf(settled.unsettled()), "what b was forwarded, to send on below it");
        assertEquals(0, ledger.heldTuples());
        assertEquals(List.of(), ledger.credited("b", ROOT, 4), "a lost child's late credit finds nothing to release");
    }

    @Test
    void shouldGiveBackWhatALostChildHadNotCreditedInFullOldestFirst() {
        ledger.received("root", ROOT, 1, List.of("b"), new int[] {3}, List.of("frame 1 to b"));
        ledger.received("root", ROOT, 1, List.of("b"), new int[] {3}, List.of("frame 2 to b"));
        ledger.received("root", ROOT, 1, List.of("b"), new int[] {3}, List.of("frame 3 to b"));
        ledger.credited("b", ROOT, 4);

        RelayCreditLedger.Settled<String, String> settled = ledger.childLost("b");
        assertEquals(List.of("frame 2 to b", "frame 3 to b"), settled.unsettled(), "frame 1 was credited; frame 2 in part");
        assertEquals(5, settled.lostTuples());
        assertEquals(List.of(), ledger.childLost("b").unsettled(), "given back once");
    }
}
