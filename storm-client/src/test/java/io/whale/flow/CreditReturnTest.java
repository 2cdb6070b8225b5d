package io.whale.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.whale.wire.BatchTupleCodec;
import io.whale.wire.BatchTupleMessage;
import io.whale.wire.FrameCredit;
import io.whale.wire.RelayCredit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.storm.messaging.TaskMessage;
import org.junit.jupiter.api.Test;

/** What a receiving server writes back for a batch, and when: the inbound connection handed over explicitly. */
class CreditReturnTest {
    private static final Map<String, Object> RELAYED = Map.of("whale.woc.enabled", true, "whale.multicast.structure", "binomial");
    private static final RelayCredit.Entry OWED = new RelayCredit.Entry(42L, 5);

    private final List<TaskMessage> sent = new ArrayList<>();

    @Test
    void shouldHoldBackTheRelayCreditOwedDuringTheHandOverUntilTheBatchIsInTheWorker() throws InterruptedException {
        List<Consumer<TaskMessage>> handedOver = new ArrayList<>();
        new CreditReturn(RELAYED).handOver(List.of(), inbound -> {
            handedOver.add(inbound);
            inbound.accept(RelayCredit.message(List.of(OWED)));
            assertEquals(List.of(), sent, "held back while the batch is being handed over");
        }, sent::add);

        assertEquals(List.of(List.of(OWED)), sent.stream().map(m -> RelayCredit.parse(m.message())).toList());
        handedOver.get(0).accept(RelayCredit.message(List.of(OWED)));
        assertEquals(2, sent.size(), "credit owed later (a child credited) goes at once, on the same connection");
    }

    @Test
    void shouldHandOverNoConnectionWithoutRelayTreesAndStillReturnTheFrameCredit() throws InterruptedException {
        List<Consumer<TaskMessage>> handedOver = new ArrayList<>();
        TaskMessage frame = new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, BatchTupleCodec.encode(1, "default", new int[] {2, 3}, null,
            new byte[] {1}));
        new CreditReturn(Map.of("whale.woc.enabled", true)).handOver(List.of(frame), handedOver::add, sent::add);

        assertSame(RelayInbound.NONE, handedOver.get(0));
        List<Integer> credited = new ArrayList<>();
        assertNull(FrameCredit.takeCredits(sent, credited::add), "nothing but credit was written");
        assertEquals(List.of(2), credited, "the frame's two tuples");
    }
}
