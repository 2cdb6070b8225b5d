package io.whale.ack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;

import io.whale.config.WhaleConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.Config;
import org.apache.storm.daemon.Acker;
import org.apache.storm.executor.LocalExecutor;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.AddressedTuple;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.JCQueue;
import org.apache.storm.utils.RegisteredGlobalState;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

class AckCombinerTest {
    private static final int ACKER = 9;
    private static final long DELAY = 5_000_000;
    private static final long HOLD = 1_000_000_000;
    private static final GeneralTopologyContext CONTEXT = context();

    private final AtomicLong now = new AtomicLong(1_000);
    private final List<AddressedTuple> sent = new ArrayList<>();
    private final List<JCQueue> sentTo = new ArrayList<>();
    private boolean ackerTakes = true;
    private final AckMetrics metrics = new AckMetrics();
    private final AckCombiner combiner = new AckCombiner(new PendingAcks(DELAY, HOLD, 16), now::get, metrics, new AckCombiner.Sender() {
        @Override
        public boolean trySend(AddressedTuple ack, JCQueue localQueue) {
            if (ackerTakes) {
                sent.add(ack);
                sentTo.add(localQueue);
            }
            return ackerTakes;
        }

        @Override
        public void flush() {
        }
    }, false);

    @Test
    void shouldSendOneAckWithTheXorOfTheWorkersAcksOfARootWithinTheDelay() {
        for (int task = 2; task <= 7; task++) {
            assertNull(combiner.collect(ack(task, 100L, 1L << task), null));
        }
        assertEquals(DELAY, combiner.sendDue(now.get()));
        assertEquals(List.of(), sent);

        now.addAndGet(DELAY);
        assertEquals(-1, combiner.sendDue(now.get()));
        assertEquals(1, sent.size());
        AddressedTuple ack = sent.get(0);
        assertEquals(ACKER, ack.getDest());
        assertEquals(Acker.ACKER_ACK_STREAM_ID, ack.getTuple().getSourceStreamId());
        assertEquals(new Values(100L, 0b11111100L), ack.getTuple().getValues());
        assertEquals(2, ack.getTuple().getSourceTask());
        assertEquals("sink", ack.getTuple().getSourceComponent());
        assertEquals(6, metrics.offeredCount());
        assertEquals(1, metrics.sentCount());
        assertEquals(DELAY / 1_000, metrics.delayMicrosTotal());
    }

    @Test
    void shouldSendTheAckOfAnAckerInThisWorkerIntoItsReceiveQueue() {
        JCQueue ackerQueue = mock(JCQueue.class);
        combiner.collect(ack(2, 100L, 3L), ackerQueue);
        combiner.collect(ack(3, 100L, 5L), ackerQueue);
        combiner.collect(new AddressedTuple(8, ack(4, 101L, 5L).getTuple()), null);
        now.addAndGet(DELAY);
        combiner.sendDue(now.get());
        assertEquals(List.of(new Values(100L, 6L), new Values(101L, 5L)), sent.stream().map(t -> t.getTuple().getValues()).toList());
        assertEquals(Arrays.asList(ackerQueue, null), sentTo, "acker 9's queue in this worker, then the transfer queue for acker 8");
    }

    @Test
    void shouldHaveTheFailingExecutorSendItsRootsPendingAckAheadOfTheFail() {
        combiner.collect(ack(2, 100L, 3L), null);
        combiner.collect(ack(3, 101L, 5L), null);

        AddressedTuple before = combiner.ackBeforeFail(fail(4, 100L));
        assertEquals(new Values(100L, 3L), before.getTuple().getValues());
        assertEquals(ACKER, before.getDest());
        assertNull(combiner.ackBeforeFail(fail(4, 100L)), "the root's ack already went");
        AddressedTuple failure = fail(4, 100L);
        assertSame(failure, combiner.collect(failure, null), "a fail is never held");

        now.addAndGet(DELAY);
        combiner.sendDue(now.get());
        assertEquals(List.of(new Values(101L, 5L)), sent.stream().map(t -> t.getTuple().getValues()).toList());
    }

    @Test
    void shouldSendTheWorkersAcksOfADeliveredRootTheMomentItsLastTaskAcks() {
        combiner.expect(List.of(100L), 6);
        for (int task = 2; task <= 6; task++) {
            now.addAndGet(DELAY);
            assertNull(combiner.collect(ack(task, 100L, 1L << task), null), "task " + task + " is not the last");
        }
        combiner.sendDue(now.get());
        assertEquals(List.of(), sent, "five of six acks wait past the delay: the sixth task owes one");

        AddressedTuple last = combiner.collect(ack(7, 100L, 1L << 7), null);
        assertEquals(ACKER, last.getDest());
        assertEquals(new Values(100L, 0b11111100L), last.getTuple().getValues(), "every task's ack in one, handed back to go now");
        assertEquals(1, metrics.completedCount());
        assertEquals(1, metrics.sentCount());
        assertEquals(-1, combiner.sendDue(now.get()), "nothing left to send");
    }

    @Test
    void shouldCountALocalEmitOnlyOnceItIsQueuedAndOnlyWhenAnchored() {
        AddressedTuple emit = anchored(2, 100L, 4L);
        assertTrue(combiner.expect(emit));
        combiner.unexpect(emit);
        assertFalse(combiner.expect(new AddressedTuple(2, new TupleImpl(CONTEXT, new Values("word"), "src", 1,
            Utils.DEFAULT_STREAM_ID))), "an unanchored tuple owes no ack");
        assertFalse(AckCombiner.OFF.expect(emit));

        combiner.expect(anchored(3, 100L, 8L));
        AddressedTuple done = combiner.collect(ack(3, 100L, 8L), null);
        assertEquals(new Values(100L, 8L), done.getTuple().getValues(), "the taken-back delivery owes nothing");
    }

    @Test
    void shouldSendTheAcksOfADeliveredRootThatATaskNeverAcksOnceTheWaitIsOver() {
        combiner.expect(List.of(100L), 2);
        assertNull(combiner.collect(ack(2, 100L, 1L), null));
        assertEquals(HOLD, combiner.sendDue(now.get()));

        now.addAndGet(HOLD);
        combiner.sendDue(now.get());
        assertEquals(List.of(new Values(100L, 1L)), sent.stream().map(t -> t.getTuple().getValues()).toList());
        assertEquals(0, metrics.completedCount());
    }

    @Test
    void shouldStillCompleteAnExpectedRootWhileBackedUpAndLetOtherAcksGoTheStockWay() {
        combiner.expect(List.of(100L), 2);
        assertNull(combiner.collect(ack(2, 100L, 1L), null));
        combiner.collect(ack(4, 101L, 3L), null);
        ackerTakes = false;
        now.addAndGet(DELAY);
        combiner.sendDue(now.get());

        AddressedTuple other = ack(5, 102L, 3L);
        assertSame(other, combiner.collect(other, null), "backed up: a root nobody counted goes the stock way");
        AddressedTuple last = combiner.collect(ack(3, 100L, 2L), null);
        assertEquals(new Values(100L, 3L), last.getTuple().getValues(), "the expected root's last ack still takes them all");
    }

    @Test
    void shouldLetAcksGoTheStockWayWhileACombinedAckCannotLeave() {
        combiner.collect(ack(2, 100L, 3L), null);
        ackerTakes = false;
        now.addAndGet(DELAY);
        assertEquals(1_000_000, combiner.sendDue(now.get()), "retries in a millisecond");
        AddressedTuple later = ack(3, 101L, 5L);
        assertSame(later, combiner.collect(later, null), "backed up: the executor keeps its ack in its pending emits");

        ackerTakes = true;
        combiner.sendDue(now.get());
        assertEquals(List.of(new Values(100L, 3L)), sent.stream().map(t -> t.getTuple().getValues()).toList());
        assertNull(combiner.collect(ack(3, 101L, 5L), null));
    }

    @Test
    void shouldTakeNoOtherTupleNoAckerNoticeAndNothingWhenOff() {
        TupleImpl data = new TupleImpl(CONTEXT, new Values("word"), "src", 1, Utils.DEFAULT_STREAM_ID);
        AddressedTuple toBolt = new AddressedTuple(2, data);
        assertSame(toBolt, combiner.collect(toBolt, null));
        assertNull(combiner.ackBeforeFail(new AddressedTuple(2, data)));
        AddressedTuple whenOff = ack(2, 100L, 3L);
        assertSame(whenOff, AckCombiner.OFF.collect(whenOff, null));
        TupleImpl ackerToSpout = new TupleImpl(CONTEXT, new Values(100L, 12L), Acker.ACKER_COMPONENT_ID, ACKER, Acker.ACKER_ACK_STREAM_ID);
        AddressedTuple notice = new AddressedTuple(1, ackerToSpout);
        assertSame(notice, combiner.collect(notice, null), "the acker's notice to the spout goes at once");
        assertNull(AckCombiner.OFF.ackBeforeFail(fail(2, 100L)));
    }

    @Test
    void shouldSendWhatWaitsWhenTheWorkerStopsAndCountWhatCannotLeave() {
        combiner.collect(ack(2, 100L, 3L), null);
        combiner.close();
        assertEquals(1, sent.size());
        assertEquals(0, metrics.droppedCount());
        AddressedTuple afterClose = ack(2, 102L, 3L);
        assertSame(afterClose, combiner.collect(afterClose, null), "closed");

        AckCombiner stuck = new AckCombiner(new PendingAcks(DELAY, HOLD, 16), now::get, metrics, new AckCombiner.Sender() {
            @Override
            public boolean trySend(AddressedTuple ack, JCQueue localQueue) {
                return false;
            }

            @Override
            public void flush() {
            }
        }, false);
        stuck.collect(ack(2, 100L, 3L), null);
        stuck.collect(ack(2, 101L, 3L), null);
        stuck.close();
        assertEquals(2, metrics.droppedCount());
    }

    @Test
    void shouldCountTheFoldedAcksAsProcessedInATrackedTopology() {
        AtomicInteger processed = new AtomicInteger();
        RegisteredGlobalState.setState("ack-combiner-test", Map.of("processed", processed));
        LocalExecutor.setTrackId("ack-combiner-test");
        try {
            for (int task = 2; task <= 7; task++) {
                combiner.collect(ack(task, 100L, 1L << task), null);
            }
            now.addAndGet(DELAY);
            combiner.sendDue(now.get());
            assertEquals(5, processed.get(), "six acks transferred, one to be executed by the acker: five folded");
        } finally {
            LocalExecutor.clearTrackId();
            RegisteredGlobalState.clearState("ack-combiner-test");
        }
    }

    @Test
    void shouldCombineByDefaultWithWocAndNeverWithoutAckers() {
        Map<String, Object> conf = new HashMap<>();
        assertFalse(AckCombiner.isOn(conf));
        conf.put(WhaleConfig.WOC_ENABLED, true);
        assertTrue(AckCombiner.isOn(conf));
        conf.put(WhaleConfig.WOC_ACK_COMBINE, false);
        assertFalse(AckCombiner.isOn(conf));
        conf.put(WhaleConfig.WOC_ACK_COMBINE, true);
        conf.put(Config.TOPOLOGY_ACKER_EXECUTORS, 0);
        assertFalse(AckCombiner.isOn(conf));
        assertSame(AckCombiner.OFF, AckCombiner.create(conf, null, null, null));
    }

    private static AddressedTuple ack(int task, long root, long value) {
        return new AddressedTuple(ACKER, new TupleImpl(CONTEXT, new Values(root, value), "sink", task, Acker.ACKER_ACK_STREAM_ID));
    }

    /** A tuple of the spout's anchored to {@code root} with edge {@code edge}, for a sink task. */
    private static AddressedTuple anchored(int task, long root, long edge) {
        return new AddressedTuple(task, new TupleImpl(CONTEXT, new Values("word"), "src", 1, Utils.DEFAULT_STREAM_ID,
            MessageId.makeRootId(root, edge)));
    }

    private static AddressedTuple fail(int task, long root) {
        return new AddressedTuple(ACKER, new TupleImpl(CONTEXT, new Values(root), "sink", task, Acker.ACKER_FAIL_STREAM_ID));
    }

    /** Spout "src" (task 1), bolt "sink" (tasks 2..7) and two ackers (8, 9), with the acker streams' fields. */
    private static GeneralTopologyContext context() {
        Map<Integer, String> taskToComponent = new HashMap<>();
        taskToComponent.put(1, "src");
        for (int t = 2; t <= 7; t++) {
            taskToComponent.put(t, "sink");
        }
        taskToComponent.put(8, Acker.ACKER_COMPONENT_ID);
        taskToComponent.put(9, Acker.ACKER_COMPONENT_ID);
        Map<String, Fields> ackerStreams = Map.of(Acker.ACKER_ACK_STREAM_ID, new Fields("id", "ack-val"),
            Acker.ACKER_FAIL_STREAM_ID, new Fields("id"));
        Map<String, Map<String, Fields>> fields = Map.of(
            "src", Map.of(Utils.DEFAULT_STREAM_ID, new Fields("word")),
            "sink", ackerStreams,
            Acker.ACKER_COMPONENT_ID, Map.of(Acker.ACKER_ACK_STREAM_ID, new Fields("id", "time-delta-ms")));
        return new GeneralTopologyContext(new StormTopology(), Utils.readDefaultConfig(), taskToComponent,
            Map.of("src", List.of(1), "sink", List.of(2, 3, 4, 5, 6, 7), Acker.ACKER_COMPONENT_ID, List.of(8, 9)), fields, "ack-test-1");
    }
}
