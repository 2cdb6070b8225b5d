package io.whale.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.whale.flow.FrameWindow;
import io.whale.woc.WocTestTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.netty.INettySerializable;
import org.apache.storm.messaging.netty.MessageBuffer;
import org.apache.storm.messaging.netty.MessageDecoder;
import org.apache.storm.serialization.KryoValuesDeserializer;
import org.apache.storm.serialization.KryoValuesSerializer;
import org.apache.storm.shade.io.netty.buffer.ByteBuf;
import org.apache.storm.shade.io.netty.buffer.Unpooled;
import org.apache.storm.shade.io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/** The credit a server returns for dispatched frames, and how the client takes it apart from Storm's load metrics. */
class FrameCreditTest {
    private static final TaskMessage LOAD_METRICS = new TaskMessage(-1, new byte[] {1, 2});

    @Test
    void shouldOweTheTuplesTheFramesOfABatchCarried() {
        byte[] values = new KryoValuesSerializer(WocTestTopology.conf()).serialize(List.of("x"));
        List<TaskMessage> received = List.of(
            new BatchTupleMessage(3, BatchTupleCodec.encode(1, "default", new int[] {3, 4, 5}, null, values)),
            new TaskMessage(4, new byte[] {2}),
            new BatchTupleMessage(7, BatchTupleCodec.encode(1, "a-longer-stream-name", new int[] {7, 9}, null, values)));
        assertEquals(5, FrameCredit.owed(received), "3 + 2 destination tasks; the stock message owes nothing");
    }

    @Test
    void shouldOweOneForAFrameWhoseHeaderCannotBeRead() {
        assertEquals(1, FrameCredit.owed(List.of(new TaskMessage(BatchTupleMessage.FRAME_TASK_ID, new byte[] {3}))));
    }

    @Test
    void shouldCreditTheWindowAndPassLoadMetricsOnInOrder() {
        FrameWindow window = fullWindow(10);
        List<TaskMessage> fromServer = List.of(FrameCredit.message(4), LOAD_METRICS, FrameCredit.message(3));

        assertEquals(List.of(LOAD_METRICS), FrameCredit.takeCredits(fromServer, window::credit));
        assertEquals(3, window.inFlight());
    }

    @Test
    void shouldTellTheHandlerWhenThereWereOnlyCredits() {
        FrameWindow window = fullWindow(2);
        assertNull(FrameCredit.takeCredits(List.of(FrameCredit.message(2)), window::credit));
        assertEquals(0, window.inFlight());
    }

    @Test
    void shouldLeaveABatchWithoutCreditsAsItIs() {
        List<TaskMessage> fromServer = List.of(LOAD_METRICS);
        assertSame(fromServer, FrameCredit.takeCredits(fromServer, fullWindow(1)::credit));
    }

    @Test
    void shouldIgnoreAMalformedCreditRatherThanWidenTheWindow() {
        FrameWindow window = fullWindow(2);
        List<TaskMessage> fromServer = List.of(new TaskMessage(FrameCredit.CREDIT_TASK_ID, new byte[] {0, 0, 0}),
                                               FrameCredit.message(-5), FrameCredit.message(0));
        assertNull(FrameCredit.takeCredits(fromServer, window::credit));
        assertEquals(2, window.inFlight());
    }

    @Test
    void creditTravelsThroughStormsNettyCodecNextToLoadMetrics() {
        MessageBuffer buffer = new MessageBuffer(1 << 10);
        buffer.add(LOAD_METRICS);
        buffer.add(FrameCredit.message(7));
        INettySerializable batch = buffer.drain();
        ByteBuf wire = Unpooled.buffer(batch.encodeLength());
        batch.write(wire);

        EmbeddedChannel channel = new EmbeddedChannel(new MessageDecoder(new KryoValuesDeserializer(WocTestTopology.conf())));
        channel.writeInbound(wire);
        @SuppressWarnings("unchecked")
        List<TaskMessage> received = new ArrayList<>((List<TaskMessage>) channel.readInbound());
        channel.finishAndReleaseAll();

        FrameWindow window = fullWindow(7);
        assertEquals(List.of(-1), FrameCredit.takeCredits(received, window::credit).stream().map(TaskMessage::task).toList());
        assertEquals(0, window.inFlight());
    }

    private static FrameWindow fullWindow(int capacity) {
        FrameWindow window = new FrameWindow(capacity);
        window.onConnected();
        for (int i = 0; i < capacity; i++) {
            window.tryAcquire(1);
        }
        return window;
    }
}
