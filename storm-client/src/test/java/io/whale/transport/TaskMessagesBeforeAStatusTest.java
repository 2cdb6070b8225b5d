package io.whale.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.whale.wire.FrameCredit;
import io.whale.flow.FrameWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.netty.BackPressureStatus;
import org.apache.storm.messaging.netty.ControlMessage;
import org.apache.storm.messaging.netty.MessageDecoder;
import org.apache.storm.serialization.KryoValuesDeserializer;
import org.apache.storm.serialization.KryoValuesSerializer;
import org.apache.storm.shade.io.netty.buffer.ByteBuf;
import org.apache.storm.shade.io.netty.buffer.ByteBufAllocator;
import org.apache.storm.shade.io.netty.buffer.Unpooled;
import org.apache.storm.shade.io.netty.channel.embedded.EmbeddedChannel;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Storm's decoder on the connection from a worker's server to its clients (patch 0028): task messages (WOC frame
 * credits, load metrics) that arrive in one read with a backpressure status or a control message after them, whole or
 * in part, are passed on, before it, not lost.
 */
class TaskMessagesBeforeAStatusTest {
    private static final Map<String, Object> CONF = Utils.readDefaultConfig();

    private final EmbeddedChannel channel = new EmbeddedChannel(new MessageDecoder(new KryoValuesDeserializer(CONF)));

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void shouldCreditTheFrameWindowWithACreditThatArrivedInTheSameReadAsABackpressureStatus() throws Exception {
        FrameWindow window = new FrameWindow(64);
        window.onConnected();
        window.tryAcquire(32);
        window.tryAcquire(32);
        assertEquals(64, window.inFlight(), "the window is full");

        channel.writeInbound(Unpooled.wrappedBuffer(taskMessage(FrameCredit.message(64)), status(List.of(2))));

        List<TaskMessage> decoded = channel.readInbound();
        assertNull(FrameCredit.takeCredits(decoded, window::credit), "the batch held only the credit");
        assertEquals(0, window.inFlight(), "the credit reached the window: its frames are no longer in flight");
        BackPressureStatus status = assertInstanceOf(BackPressureStatus.class, channel.readInbound());
        assertEquals(List.of(2), status.bpTasks);
        assertNull(channel.readInbound());
    }

    @Test
    void shouldPassOnACreditReadBeforeAStatusWhoseBytesHaveNotAllArrived() throws Exception {
        ByteBuf status = status(List.of(2));
        ByteBuf statusStart = status.readRetainedSlice(5);

        channel.writeInbound(Unpooled.wrappedBuffer(taskMessage(FrameCredit.message(32)), statusStart));

        List<TaskMessage> decoded = channel.readInbound();
        assertEquals(List.of(FrameCredit.CREDIT_TASK_ID), decoded.stream().map(TaskMessage::task).toList());
        assertNull(channel.readInbound(), "the status waits for its remaining bytes");

        channel.writeInbound(status);
        assertEquals(List.of(2), assertInstanceOf(BackPressureStatus.class, channel.readInbound()).bpTasks);
    }

    @Test
    void shouldPassOnTaskMessagesReadBeforeAControlMessageAheadOfIt() {
        channel.writeInbound(Unpooled.wrappedBuffer(taskMessage(new TaskMessage(5, new byte[] {1, 2})),
            taskMessage(new TaskMessage(6, new byte[] {3})), control(ControlMessage.CLOSE_MESSAGE)));

        List<TaskMessage> decoded = channel.readInbound();
        assertEquals(List.of(5, 6), decoded.stream().map(TaskMessage::task).toList());
        assertArrayEquals(new byte[] {1, 2}, decoded.get(0).message());
        assertEquals(ControlMessage.CLOSE_MESSAGE, channel.readInbound());
    }

    @Test
    void shouldKeepTheOrderOfTaskMessagesOnEitherSideOfAStatus() throws Exception {
        channel.writeInbound(Unpooled.wrappedBuffer(taskMessage(new TaskMessage(7, new byte[] {7})), status(List.of()),
            taskMessage(new TaskMessage(8, new byte[] {8}))));

        List<TaskMessage> before = channel.readInbound();
        assertEquals(List.of(7), before.stream().map(TaskMessage::task).toList());
        assertInstanceOf(BackPressureStatus.class, channel.readInbound());
        List<TaskMessage> after = channel.readInbound();
        assertEquals(List.of(8), after.stream().map(TaskMessage::task).toList());
    }

    /** A task message as Storm's MessageBatch writes it: task, length, payload. */
    private static ByteBuf taskMessage(TaskMessage message) {
        byte[] payload = message.message();
        return Unpooled.buffer().writeShort(message.task()).writeInt(payload.length).writeBytes(payload);
    }

    private static ByteBuf status(List<Integer> bpTasks) throws Exception {
        return new BackPressureStatus("worker-a", new ArrayList<>(bpTasks), new ArrayList<>()).buffer(ByteBufAllocator.DEFAULT, new KryoValuesSerializer(CONF));
    }

    private static ByteBuf control(ControlMessage message) {
        ByteBuf buf = Unpooled.buffer();
        message.write(buf);
        return buf;
    }
}
