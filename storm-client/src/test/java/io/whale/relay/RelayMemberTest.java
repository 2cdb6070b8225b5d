package io.whale.relay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.whale.flow.FrameWindow;
import io.whale.flow.RelayLink;
import io.whale.multicast.BinomialTreeBuilder;
import io.whale.wire.MalformedFrameException;
import io.whale.wire.RelayCredit;
import io.whale.wire.RelayFrame;
import io.whale.wire.RelayFrameCodec;
import io.whale.wire.RelayFrameMessage;
import io.whale.wire.RelayRoute;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.ConnectionWithStatus;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.netty.Client;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.utils.JCQueue;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/** A member A with tasks 1 and 2 whose children are B (task 3) and C (task 4). */
class RelayMemberTest {
    private static final long ROOT = 11L;
    private static final long SELF = 77L;
    private static final long SECOND = 1_000_000_000L;
    private static final RelayRoute ROUTE = new RelayRoute(new int[] {1, 2}, List.of(RelayRoute.leaf(3), RelayRoute.leaf(4)));
    private static final NodeInfo B = new NodeInfo("b", java.util.Set.of(6700L));
    private static final NodeInfo C = new NodeInfo("c", java.util.Set.of(6700L));
    private static final NodeInfo D = new NodeInfo("d", java.util.Set.of(6700L));
    /** B's task, what B's subtree has when B is a leaf. */
    private static final Supplier<int[]> B_ALONE = () -> new int[] {3};
    /** A leaf route to B alone. */
    private static final RelayRoute ROUTE_TO_B = new RelayRoute(new int[] {1, 2}, List.of(RelayRoute.leaf(3)));
    /** As {@link #ROUTE}, with D (task 5) below B. */
    private static final RelayRoute DEEP = new RelayRoute(new int[] {1, 2},
        List.of(new RelayRoute(new int[] {3}, List.of(RelayRoute.leaf(5))), RelayRoute.leaf(4)));

    private final JCQueue transferQueue = mock(JCQueue.class);
    private final List<Object> published = new ArrayList<>();
    private final List<RelayCredit.Entry> credited = new ArrayList<>();
    /** The connection the frames came in on: what it is sent is credit. */
    private final Consumer<TaskMessage> parent = message -> credited.addAll(RelayCredit.parse(message.message()));
    private final Client toB = client();
    private final Client toC = client();
    private final Client toD = client();
    private final Map<NodeInfo, Client> connections = new java.util.HashMap<>(Map.of(B, toB, C, toC, D, toD));
    private final AtomicLong now = new AtomicLong();
    /** Remote tasks under Storm's backpressure. */
    private final java.util.Set<Integer> backPressure = new java.util.HashSet<>();
    /** Sends around a child after 1 s without credit, on {@link #now}. */
    private final RelayMember member = new RelayMember(SELF, transferQueue, () -> Map.of(3, B, 4, C, 5, D), connections::get,
        TreeShaper.fixed(new BinomialTreeBuilder()), held -> new RelayMetrics(new StormMetricRegistry(), held::get), now::get, backPressure::contains, SECOND);

    RelayMemberTest() {
        when(transferQueue.isEmptyOverflow()).thenReturn(true);
        when(transferQueue.tryPublishDirect(any())).thenAnswer(call -> published.add(call.getArgument(0)));
    }

    @Test
    void shouldGiveEachLaunchItsOwnIncarnationEvenInTheSameMillisecond() {
        long before = System.currentTimeMillis();
        java.util.Set<Long> randomParts = new java.util.HashSet<>();
        for (int i = 0; i < 50; i++) {
            long incarnation = RelayMember.newIncarnation();
            assertTrue(incarnation >> 20 >= before, "the launch time leads, so a later launch compares higher");
            randomParts.add(incarnation & 0xFFFFF);
        }
        assertTrue(randomParts.size() > 1, "workers launched in one millisecond differ: " + randomParts);
    }

    @Test
    void shouldForwardEachChildItsFrameAndCreditTheParentOnlyOnceBothChildrenHave() {
        RelayFrame frame = receive(frame(1));

        assertArrayEquals(new int[] {1, 2}, frame.tasks());
        assertEquals(2, published.size());
        RelayFrameMessage toChildB = (RelayFrameMessage) published.get(0);
        assertEquals(3, toChildB.routingTask());
        assertArrayEquals(new int[] {3}, RelayFrameCodec.decode(toChildB.message()).tasks());
        assertEquals(List.of(), credited, "nothing is credited before the children credit");
        assertEquals(toChildB.message().length + ((RelayFrameMessage) published.get(1)).message().length,
            member.metrics().bytesForwarded());

        linkOf(toB).credited(List.of(new RelayCredit.Entry(ROOT, 1)));
        assertEquals(List.of(), credited);
        linkOf(toC).credited(List.of(new RelayCredit.Entry(ROOT, 1)));
        assertEquals(List.of(new RelayCredit.Entry(ROOT, 4)), credited);
    }

    @Test
    void shouldCountAChildWithoutAReadyConnectionAsLostAndNotWaitForIt() {
        when(toC.status()).thenReturn(ConnectionWithStatus.Status.Connecting);
        receive(frame(1));

        assertEquals(1, published.size(), "only B is sent its frame");
        assertEquals(1, member.metrics().lostTuples());
        linkOf(toB).credited(List.of(new RelayCredit.Entry(ROOT, 1)));
        assertEquals(List.of(new RelayCredit.Entry(ROOT, 4)), credited);
    }

    @Test
    void shouldHoldFramesTakenBeforeTheWorkerIsActiveAndForwardThemInOrderOnceItIs() {
        member.holdUntilActive();
        when(toC.status()).thenReturn(ConnectionWithStatus.Status.Connecting);
        assertNotNull(receive(frame(1)), "its own tasks get the frame at once");
        receive(frame(2));
        assertEquals(List.of(), published, "nothing goes before the worker's connections are up");
        assertEquals(8, member.metrics().heldTuples(), "what is held counts as held");

        when(toC.status()).thenReturn(ConnectionWithStatus.Status.Ready);
        member.activated();
        assertEquals(List.of(3, 4, 3, 4), routingTasks());
        assertEquals(List.of(1L, 1L, 2L, 2L), published.stream()
            .map(m -> RelayFrameCodec.decode(((RelayFrameMessage) m).message()).seq()).toList(), "in order");
        assertEquals(0, member.metrics().lostTuples(), "C was not sent around");
        assertEquals(0, member.metrics().repairs());
        linkOf(toB).credited(List.of(new RelayCredit.Entry(ROOT, 2)));
        linkOf(toC).credited(List.of(new RelayCredit.Entry(ROOT, 2)));
        assertEquals(8, credited.stream().mapToInt(RelayCredit.Entry::tuples).sum(), "both frames are credited to the parent");

        receive(frame(3));
        assertEquals(6, published.size(), "active: the next frame goes at once");
    }

    @Test
    void shouldBeatToTheParentOfHeldFramesAndForwardThemAfterTheStallBoundIfTheWorkerIsNotActiveBy() {
        member.holdUntilActive();
        when(toC.status()).thenReturn(ConnectionWithStatus.Status.Connecting);
        receive(frame(1));
        now.set(SECOND - 1);
        member.checkStalls();
        assertEquals(List.of(), published);
        assertEquals(List.of(new RelayCredit.Entry(ROOT, 0)), credited, "a beat, so that the parent does not send around this member");

        now.set(SECOND);
        member.checkStalls();
        assertEquals(List.of(3), routingTasks(), "the worker is still not active: C, not connected to, is sent around");
        assertEquals(1, member.metrics().lostTuples());
        receive(frame(2));
        assertEquals(List.of(3, 3), routingTasks(), "and frames are no longer held");
    }

    @Test
    void shouldRefuseAHeldFrameWhoseRouteReachesOneWorkerTwiceOnceAChildIsSentAround() {
        RelayMember fiveOnC = new RelayMember(SELF, transferQueue, () -> Map.of(3, B, 4, C, 5, C), connections::get,
            TreeShaper.fixed(new BinomialTreeBuilder()), held -> new RelayMetrics(new StormMetricRegistry(), held::get), now::get, backPressure::contains, SECOND);
        fiveOnC.holdUntilActive();
        receiveOn(fiveOnC, frame(1, DEEP));
        when(toB.status()).thenReturn(ConnectionWithStatus.Status.Closed);

        fiveOnC.activated();

        assertEquals(List.of(), published, "B's child and C are one worker: nothing left");
        assertEquals(1, fiveOnC.metrics().framesRefused());
        assertEquals(List.of(new RelayCredit.Entry(ROOT, 5)), credited, "credited to its sender, as a refused frame is");
    }

    @Test
    void shouldRefuseAFrameWhoseChildrenAreOneWorkerEvenWhileHolding() {
        Map<Integer, NodeInfo> twoTasksOnB = Map.of(3, B, 4, B);
        RelayMember onB = new RelayMember(SELF, transferQueue, () -> twoTasksOnB, connections::get,
            TreeShaper.fixed(new BinomialTreeBuilder()), held -> new RelayMetrics(new StormMetricRegistry(), held::get), now::get, task -> false, 0L);
        onB.holdUntilActive();
        RelayFrame frame = RelayFrameCodec.decode(frame(1));
        assertThrows(MalformedFrameException.class, () -> onB.receive(frame, parent));
    }

    @Test
    void shouldSendAroundAnUnreachableChildToItsChildrenAndCountOnlyItsOwnTuplesLost() {
        when(toB.status()).thenReturn(ConnectionWithStatus.Status.Connecting);
        receive(frame(1, DEEP));

        assertEquals(List.of(5, 4), published.stream().map(m -> ((RelayFrameMessage) m).routingTask()).toList(),
            "B's child D, then C");
        assertArrayEquals(new int[] {5}, RelayFrameCodec.decode(((RelayFrameMessage) published.get(0)).message()).tasks());
        assertEquals(1, member.metrics().lostTuples(), "B's own task");
        assertEquals(1, member.metrics().repairs());
        linkOf(toD).credited(List.of(new RelayCredit.Entry(ROOT, 1)));
        assertEquals(List.of(), credited);
        linkOf(toC).credited(List.of(new RelayCredit.Entry(ROOT, 1)));
        assertEquals(List.of(new RelayCredit.Entry(ROOT, 5)), credited, "the whole subtree is settled: D, C, B lost, A");
    }

    @Test
    void shouldRelayThroughAChildAgainOnceItsConnectionIsBack() {
        when(toB.status()).thenReturn(ConnectionWithStatus.Status.Connecting);
        receive(frame(1, DEEP));
        when(toB.status()).thenReturn(ConnectionWithStatus.Status.Ready);
        published.clear();
        receive(frame(2, DEEP));

        assertEquals(List.of(3, 4), published.stream().map(m -> ((RelayFrameMessage) m).routingTask()).toList());
        assertEquals(1, member.metrics().repairs(), "only the first frame went around B");
    }

    @Test
    void shouldReleaseTheCreditALostChildHeldBack() {
        receive(frame(1));
        linkOf(toB).credited(List.of(new RelayCredit.Entry(ROOT, 1)));
        linkOf(toC).disconnected();

        assertEquals(List.of(new RelayCredit.Entry(ROOT, 4)), credited);
        assertEquals(1, member.metrics().lostTuples());
        assertEquals(1, member.metrics().childrenDisconnected());
    }

    @Test
    void shouldSendAroundAMemberWhoseWindowStayedFullWithNoCreditAndReleaseWhatItOwed() {
        receive(frame(1));
        linkOf(toC).credited(List.of(new RelayCredit.Entry(ROOT, 1)));
        FrameWindow window = stalledWindowTo(toB);
        assertTrue(member.reachable(B, B_ALONE), "no credit for 999 ms: still waited for");

        now.set(SECOND);
        assertFalse(member.reachable(B, B_ALONE), "the frames this worker rooted for B got no credit for 1 s");
        assertEquals(1, member.metrics().childrenStalled());
        assertEquals(List.of(new RelayCredit.Entry(ROOT, 4)), credited, "frame 1 settled: B's share counted lost");
        assertEquals(1, member.metrics().lostTuples());

        linkOf(toB).credited(List.of(new RelayCredit.Entry(SELF, 1)));
        assertTrue(member.reachable(B, B_ALONE), "its next credit ends the stall");
        assertEquals(1, window.inFlight());
    }

    @Test
    void shouldKeepWaitingForAChildWhoseWindowIsFullWhileItBeats() {
        receive(frame(1));
        stalledWindowTo(toB);
        linkOf(toB).credited(List.of(new RelayCredit.Entry(SELF, 0)));
        now.set(SECOND);

        assertTrue(member.reachable(B, B_ALONE), "B beat 1 ms ago: it is alive and waits for credit below it");
        assertEquals(0, member.metrics().childrenStalled());
        now.set(2 * SECOND);
        assertFalse(member.reachable(B, B_ALONE), "no credit and no beat for 1 s");
    }

    @Test
    void shouldSendAroundAChildThatOwesForwardedFramesWithNoCreditForTheBoundAndSettleWhatItOwed() {
        receive(frame(1, DEEP));
        linkOf(toC).credited(List.of(new RelayCredit.Entry(ROOT, 1)));
        now.set(SECOND - 1);
        member.checkStalls();
        assertEquals(List.of(new RelayCredit.Entry(ROOT, 0)), credited, "a beat to the parent while B owes: A is alive");
        assertEquals(0, member.metrics().childrenStalled());
        credited.clear();

        published.clear();
        now.set(SECOND);
        member.checkStalls();
        assertEquals(1, member.metrics().childrenStalled());
        assertEquals(List.of(new RelayCredit.Entry(ROOT, 5)), credited, "frame 1 settled with B");
        assertEquals(List.of(5), routingTasks(), "frame 1, which B owed, is sent on to B's child D from here");
        assertEquals(1, member.metrics().lostTuples(), "B's own task");
        assertEquals(1, member.metrics().resentTuples());
        published.clear();
        receive(frame(2, DEEP));
        assertEquals(List.of(5, 4), routingTasks(), "A sends B's child D its frame itself, then C");

        linkOf(toB).credited(List.of(new RelayCredit.Entry(ROOT, 1)));
        assertTrue(member.reachable(B, B_ALONE), "B's next credit (the partition healed) ends the stall");
    }

    @Test
    void shouldSendALostChildsUncreditedFramesOnToItsChildrenInOrderBeforeTheFramesSentAroundIt() {
        receive(frame(1, DEEP));
        receive(frame(2, DEEP));
        receive(frame(3, DEEP));
        linkOf(toB).credited(List.of(new RelayCredit.Entry(ROOT, 2))); // frame 1 is done below B
        published.clear();
        now.set(SECOND + 1);
        linkOf(toC).credited(List.of(new RelayCredit.Entry(ROOT, 3)));

        member.checkStalls();
        receive(frame(4, DEEP));
        assertEquals(List.of(5, 5, 5, 4), routingTasks(), "D is sent frames 2 and 3, which B owed, then frame 4; C frame 4");
        assertEquals(List.of(2L, 3L, 4L, 4L), published.stream()
            .map(m -> RelayFrameCodec.decode(((RelayFrameMessage) m).message()).seq()).toList());
        assertEquals(3, member.metrics().lostTuples(), "B's own task in frames 2 and 3 (settled) and 4 (sent around)");
        assertEquals(2, member.metrics().resentTuples());

        credited.clear();
        linkOf(toD).credited(List.of(new RelayCredit.Entry(ROOT, 2)));
        assertEquals(List.of(), credited, "the parent's credit for frames 2 and 3 was settled with B: D's is not passed on again");
    }

    @Test
    void shouldNotTakeAStalledChildsLateCreditForTheFramesItIsForwardedAfter() {
        receive(frame(1, DEEP));
        receive(frame(2, DEEP));
        linkOf(toC).credited(List.of(new RelayCredit.Entry(ROOT, 2)));
        now.set(SECOND);
        member.checkStalls(); // B owed frames 1 and 2 for 1 s: settled, sent on to D
        linkOf(toD).credited(List.of(new RelayCredit.Entry(ROOT, 2)));
        linkOf(toB).credited(List.of(new RelayCredit.Entry(ROOT, 1))); // B, slow, not gone: its stall ends
        receive(frame(3, DEEP));
        credited.clear();

        linkOf(toB).credited(List.of(new RelayCredit.Entry(ROOT, 3)));
        assertEquals(List.of(), credited, "the rest of frames 1 and 2's late credit: frame 3 still waits for B");
        published.clear();
        now.set(3 * SECOND);
        member.checkStalls();
        assertEquals(List.of(5), routingTasks(), "B stalls again owing frame 3, which goes on to D");
    }

    @Test
    void shouldTellTheShaperAStalledChildWhoseCreditMayComeLateFromADisconnectedOne() {
        TreeShaper shaper = mock(TreeShaper.class);
        RelayMember root = new RelayMember(SELF, transferQueue, () -> Map.of(3, B, 4, C), connections::get, shaper,
            held -> new RelayMetrics(new StormMetricRegistry(), held::get), now::get, backPressure::contains, SECOND);
        root.link(toB, B);
        root.link(toC, C);
        stalledWindowTo(toB);
        now.set(SECOND);

        assertFalse(root.reachable(B, B_ALONE));
        verify(shaper).stalled(B);
        linkOf(toC).disconnected();
        verify(shaper).lost(C);
    }

    @Test
    void shouldSendAStalledChildItsOwnTuplesAloneWhileItsChildrenGetTheirsFromHere() {
        member.bufferForStalledMembers(1 << 20);
        receive(frame(1, DEEP));
        linkOf(toC).credited(List.of(new RelayCredit.Entry(ROOT, 1)));
        now.set(SECOND);
        member.checkStalls();
        published.clear();
        credited.clear();

        receive(frame(2, DEEP));
        assertEquals(List.of(5, 4, 3), routingTasks(), "D and C their frames, then B its own tuples alone");
        RelayFrame alone = RelayFrameCodec.decode(((RelayFrameMessage) published.get(2)).message());
        assertArrayEquals(new int[] {3}, alone.tasks());
        assertTrue(alone.children().isEmpty());
        assertEquals(1, member.metrics().sentStalledTuples());
        assertEquals(1, member.metrics().lostTuples(), "only B's own tuple of frame 1, settled when it stalled");

        linkOf(toD).credited(List.of(new RelayCredit.Entry(ROOT, 2)));
        linkOf(toC).credited(List.of(new RelayCredit.Entry(ROOT, 1)));
        assertEquals(List.of(new RelayCredit.Entry(ROOT, 5)), credited, "frame 2's credit does not wait for the stalled B");
        credited.clear();
        linkOf(toB).credited(List.of(new RelayCredit.Entry(ROOT, 1)));
        assertEquals(List.of(), credited, "B's credit for what it was sent alone goes to nobody");
        assertTrue(member.reachable(B, B_ALONE), "and ends its stall");
    }

    @Test
    void shouldCountAStalledChildsOwnTuplesLostOnceItsStallBufferIsSpent() {
        member.bufferForStalledMembers(RelayFrameCodec.forwardAlone(RelayFrameCodec.decode(frame(2, DEEP)),
            RelayFrameCodec.decode(frame(2, DEEP)).children().get(0)).length);
        receive(frame(1, DEEP));
        now.set(SECOND);
        member.checkStalls();
        published.clear();

        receive(frame(2, DEEP));
        receive(frame(3, DEEP));
        assertEquals(List.of(5, 3, 4, 5), routingTasks(), "B and C are sent frame 2 alone, not frame 3: each stall buffer holds one");
        assertEquals(2, member.metrics().sentStalledTuples());
        assertEquals(4, member.metrics().lostTuples(), "B's and C's own tuples of frame 1 (settled) and frame 3");
    }

    @Test
    void shouldSendADisconnectedChildsUncreditedFramesOnToItsChildren() {
        receive(frame(1, DEEP));
        published.clear();

        linkOf(toB).disconnected();
        assertEquals(List.of(5), routingTasks());
        assertArrayEquals(new int[] {5}, RelayFrameCodec.decode(((RelayFrameMessage) published.get(0)).message()).tasks());
        assertEquals(1, member.metrics().lostTuples(), "B's own task");
    }

    @Test
    void shouldNotSendAroundAChildThatOwesWhileItBeatsOrIsUnderBackPressure() {
        receive(frame(1, DEEP));
        now.set(SECOND - 1);
        linkOf(toB).credited(List.of(new RelayCredit.Entry(ROOT, 0)));
        now.set(SECOND + SECOND / 2);
        member.checkStalls();
        assertEquals(1, member.metrics().childrenStalled(), "C, silent since 0, is sent around");
        assertFalse(member.reachable(C, () -> new int[] {4}));
        assertTrue(member.reachable(B, B_ALONE), "B beat half a second ago");

        backPressure.add(3);
        now.set(3 * SECOND);
        member.checkStalls();
        assertTrue(member.reachable(B, B_ALONE), "B's queues are full: it is slow, not gone");
        backPressure.clear();
        member.checkStalls();
        assertFalse(member.reachable(B, B_ALONE));
    }

    @Test
    void shouldNotSendAroundAStalledMemberThatIsUnderBackPressure() {
        stalledWindowTo(toB);
        backPressure.add(3);
        now.set(SECOND);

        assertTrue(member.reachable(B, B_ALONE), "B's queues are full: it is slow, not gone");
        assertEquals(0, member.metrics().childrenStalled());
        backPressure.clear();
        assertFalse(member.reachable(B, B_ALONE));
    }

    @Test
    void shouldNotSendAroundAStalledRelayWhileATaskBelowItIsUnderBackPressure() {
        stalledWindowTo(toB);
        backPressure.add(5);
        now.set(SECOND);

        receive(frame(1, DEEP));
        assertEquals(List.of(3, 4), routingTasks(), "B waits for D, whose queues are full: B is sent its frame, D is not sent around it");
        assertEquals(0, member.metrics().childrenStalled());
        assertEquals(0, member.metrics().lostTuples());

        backPressure.clear();
        published.clear();
        receive(frame(2, DEEP));
        assertEquals(List.of(5, 5, 4), routingTasks(),
            "with nothing below it under backpressure, B is sent around: D gets frame 1, which B owed, then frame 2");
        assertEquals(1, member.metrics().childrenStalled());
    }

    /** {@code client}'s window (2 tuples, stalled after 1 s on {@link #now}), full from {@code now} = 999 ms before 1 s. */
    private FrameWindow stalledWindowTo(Client client) {
        return stalledWindowTo(client, 0);
    }

    /** A window to {@code client} that sends up to {@code stallBufferBytes} beyond its room once stalled. */
    private FrameWindow stalledWindowTo(Client client, long stallBufferBytes) {
        FrameWindow window = new FrameWindow(2, 0, SECOND, stallBufferBytes, now::get);
        window.onConnected();
        when(client.frameWindow()).thenReturn(window);
        window.tryAcquire(2);
        window.refused();
        now.set(SECOND - 1);
        return window;
    }

    @Test
    void shouldAskForAConnectionRefreshWhenAFrameNamesAMemberWithoutAConnectionUp() {
        AtomicInteger refreshes = new AtomicInteger();
        member.refreshConnectionsWith(refreshes::incrementAndGet);
        when(toC.status()).thenReturn(ConnectionWithStatus.Status.Connecting);
        receive(frame(1));
        assertEquals(1, refreshes.get(), "C restarted elsewhere, this worker still reconnects to its old slot: refresh now, not in 10 s");
        assertEquals(List.of(3), routingTasks(), "C is sent around meanwhile");

        now.set(499_000_000L);
        receive(frame(2));
        assertEquals(1, refreshes.get(), "at most one refresh per 500 ms");
        now.set(500_000_000L);
        when(toC.status()).thenReturn(ConnectionWithStatus.Status.Ready);
        receive(frame(3));

        assertEquals(1, refreshes.get(), "connected: nothing to ask");
        assertEquals(List.of(3, 3, 3, 4), routingTasks());
        assertEquals(1, member.metrics().connectsRequested());
    }

    @Test
    void shouldAskForAConnectionRefreshWhenAFrameNamesATaskThisWorkerDoesNotKnow() {
        AtomicInteger refreshes = new AtomicInteger();
        RelayMember withoutC = new RelayMember(SELF, transferQueue, () -> Map.of(3, B), connections::get,
            TreeShaper.fixed(new BinomialTreeBuilder()), held -> new RelayMetrics(new StormMetricRegistry(), held::get), now::get, backPressure::contains, SECOND);
        withoutC.refreshConnectionsWith(refreshes::incrementAndGet);

        receiveOn(withoutC, frame(1));

        assertEquals(1, refreshes.get(), "task 4 moved to a worker this one has not read from the assignment yet");
        assertEquals(List.of(3), routingTasks());
    }

    @Test
    void shouldDropARepeatedFrameUnforwardedAndCreditItAtOnce() {
        receive(frame(1));
        published.clear();
        assertNull(receive(frame(1)));

        assertEquals(List.of(), published);
        assertEquals(List.of(new RelayCredit.Entry(ROOT, 4)), credited);
    }

    @Test
    void shouldRefuseARouteThatReachesOneWorkerTwiceAndSendNothing() {
        Map<Integer, NodeInfo> twoTasksOnB = Map.of(3, B, 4, B);
        RelayMember onB = new RelayMember(SELF, transferQueue, () -> twoTasksOnB, connections::get,
            TreeShaper.fixed(new BinomialTreeBuilder()), held -> new RelayMetrics(new StormMetricRegistry(), held::get), System::nanoTime, task -> false, 0L);
        RelayFrame frame = RelayFrameCodec.decode(frame(1));

        assertThrows(MalformedFrameException.class, () -> onB.receive(frame, parent));
        onB.refused(frame, parent);

        assertEquals(List.of(), published, "no copy left");
        assertEquals(List.of(new RelayCredit.Entry(ROOT, 4)), credited, "the refused frame is credited to its sender at once");
        assertNotNull(receiveOn(onB, RelayFrameCodec.encode(9, "default", ROOT, 5, 1, ROUTE_TO_B, null, new byte[] {1})),
            "the frame's stream was not moved by the refused one: its first frame is still delivered");
    }

    @Test
    void shouldRefuseARouteThatReachesOneWorkerTwiceOnceAnUnreachableMemberIsSentAround() {
        when(toB.status()).thenReturn(ConnectionWithStatus.Status.Connecting);
        RelayMember fiveOnC = new RelayMember(SELF, transferQueue, () -> Map.of(3, B, 4, C, 5, C), connections::get,
            TreeShaper.fixed(new BinomialTreeBuilder()), held -> new RelayMetrics(new StormMetricRegistry(), held::get), System::nanoTime, task -> false, 0L);
        RelayFrame frame = RelayFrameCodec.decode(frame(1, DEEP));

        assertThrows(MalformedFrameException.class, () -> fiveOnC.receive(frame, parent), "B's child and C are one worker");
        assertEquals(List.of(), published);
        assertEquals(0, fiveOnC.metrics().repairs(), "nothing counted for a refused frame");
    }

    @Test
    void shouldSendTheFramesItRootedForAStalledChildAndHadNoCreditForOnToItsChildren() {
        member.link(toB, B);
        member.sending(B, 2, rooted(1));
        member.sending(B, 2, rooted(2));
        linkOf(toB).credited(List.of(new RelayCredit.Entry(SELF, 2))); // frame 1 is done below B
        FrameWindow toDWindow = connectedWindowTo(toD);
        stalledWindowTo(toB);
        now.set(SECOND);

        assertFalse(member.reachable(B, () -> new int[] {3, 5}), "B, this source's child, returned no credit for 1 s");
        assertEquals(List.of(5), routingTasks(), "frame 2, which B owed, is sent on to B's child D from here");
        assertEquals(2L, RelayFrameCodec.decode(((RelayFrameMessage) published.get(0)).message()).seq());
        assertEquals(1, toDWindow.inFlight(), "D's window waits for its credit");
        assertEquals(1, member.metrics().lostTuples(), "B's own task of frame 2");
        assertEquals(1, member.metrics().resentTuples());

        linkOf(toD).credited(List.of(new RelayCredit.Entry(SELF, 1)));
        assertEquals(0, toDWindow.inFlight());
        assertEquals(List.of(), credited, "a frame rooted here owes no parent");
    }

    @Test
    void shouldSendTheFramesItRootedForADisconnectedChildOnToItsChildren() {
        member.link(toB, B);
        member.sending(B, 2, rooted(1));
        byte[] unsent = rooted(2);
        member.sending(B, 2, unsent);
        member.notSent(B, unsent);

        linkOf(toB).disconnected();
        assertEquals(List.of(1L), published.stream()
            .map(m -> RelayFrameCodec.decode(((RelayFrameMessage) m).message()).seq()).toList(),
            "frame 1 goes on to D; frame 2 never left, so it is not B's to owe");
    }

    @Test
    void shouldSendAroundAFrameItRootedForAChildThatStalledBeforeTheFrameLeft() {
        member.bufferForStalledMembers(1 << 20);
        FrameWindow toBWindow = stalledWindowTo(toB, 1 << 20);
        now.set(SECOND);

        member.sendAround(B, rooted(1));
        assertEquals(List.of(3, 5), routingTasks(), "B its own tuple alone, its child D the rest");
        RelayFrame alone = RelayFrameCodec.decode(((RelayFrameMessage) published.get(0)).message());
        assertArrayEquals(new int[] {3}, alone.tasks());
        assertTrue(alone.children().isEmpty());
        assertEquals(3, toBWindow.inFlight(), "sent into B's stall buffer, beyond its window");
        assertEquals(1, member.metrics().sentStalledTuples());
        assertEquals(0, member.metrics().lostTuples());
        assertEquals(1, member.metrics().repairs());
    }

    @Test
    void shouldCountTheOwnTuplesOfAFrameItRootedLostWhenItsMemberWentBeforeTheFrameLeft() {
        member.bufferForStalledMembers(1 << 20);
        when(toB.status()).thenReturn(ConnectionWithStatus.Status.Connecting);

        member.sendAround(B, rooted(1));
        assertEquals(List.of(5), routingTasks(), "nothing to B, whose connection is down; D its frame");
        assertEquals(1, member.metrics().lostTuples());
    }

    /** A frame this worker roots for B, with D below it. */
    private static byte[] rooted(long seq) {
        return RelayFrameCodec.encode(9, "default", SELF, 5, seq, new RelayRoute(new int[] {3}, List.of(RelayRoute.leaf(5))),
            null, new byte[] {1});
    }

    private FrameWindow connectedWindowTo(Client client) {
        FrameWindow window = new FrameWindow(10);
        window.onConnected();
        when(client.frameWindow()).thenReturn(window);
        return window;
    }

    @Test
    void shouldRefillTheWindowWithCreditForItsOwnFrames() {
        receive(frame(1));
        FrameWindow window = toB.frameWindow();
        window.onConnected();
        window.tryAcquire(5);
        linkOf(toB).credited(List.of(new RelayCredit.Entry(SELF, 5)));
        assertEquals(0, window.inFlight());
        assertEquals(List.of(), credited);
    }

    /** The frame as the dispatcher hands it over, decoded; null when the member drops it. */
    private RelayFrame receive(byte[] bytes) {
        return receiveOn(member, bytes);
    }

    private RelayFrame receiveOn(RelayMember on, byte[] bytes) {
        RelayFrame frame = RelayFrameCodec.decode(bytes);
        return on.receive(frame, parent) ? frame : null;
    }

    private List<Integer> routingTasks() {
        return published.stream().map(m -> ((RelayFrameMessage) m).routingTask()).toList();
    }

    private static byte[] frame(long seq) {
        return frame(seq, ROUTE);
    }

    private static byte[] frame(long seq, RelayRoute route) {
        return RelayFrameCodec.encode(9, "default", ROOT, 5, seq, route, null, new byte[] {1});
    }

    private static RelayLink linkOf(Client client) {
        ArgumentCaptor<RelayLink> link = ArgumentCaptor.forClass(RelayLink.class);
        verify(client).relayLink(link.capture());
        return link.getValue();
    }

    private static Client client() {
        Client client = mock(Client.class);
        when(client.status()).thenReturn(ConnectionWithStatus.Status.Ready);
        when(client.frameWindow()).thenReturn(new FrameWindow(10));
        return client;
    }
}
