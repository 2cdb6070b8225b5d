package io.whale.rdma.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.whale.rdma.RdmaException;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class InboundBatchTest {
    private final InboundSession session = mock(InboundSession.class);

    InboundBatchTest() {
        when(session.peer()).thenReturn("127.0.0.1:1234");
    }

    private InboundBatch batch(ByteBuffer bytes, int messages) {
        return new InboundBatch(session, new BatchDescriptor(7, 0, bytes.remaining(), messages), bytes);
    }

    private static ByteBuffer frames(byte[]... messages) {
        int size = 0;
        for (byte[] message : messages) {
            size += 4 + message.length;
        }
        ByteBuffer buffer = ByteBuffer.allocate(size);
        for (byte[] message : messages) {
            buffer.putInt(message.length).put(message);
        }
        return buffer.flip();
    }

    @Test
    void shouldSplitTheWorkRequestIntoItsMessagesInOrder() {
        InboundBatch batch = batch(frames(new byte[] {1}, new byte[0], new byte[] {2, 3}), 3);
        List<byte[]> messages = batch.copyMessages();
        assertEquals(3, messages.size());
        assertEquals(1, messages.get(0)[0]);
        assertEquals(0, messages.get(1).length);
        assertEquals(3, messages.get(2)[1]);
    }

    @Test
    void shouldRejectAFrameThatClaimsMoreBytesThanTheBatchHolds() {
        ByteBuffer bytes = frames(new byte[] {1, 2, 3});
        bytes.putInt(0, 1_000);
        RdmaException error = assertThrows(RdmaException.class, () -> batch(bytes, 1).copyMessages());
        assertTrue(error.getMessage().contains("claims 1000 bytes"), error.getMessage());
        assertTrue(error.getMessage().contains("127.0.0.1:1234"), "names the peer");
    }

    @Test
    void shouldRejectAMessageCountThatDisagreesWithTheBytes() {
        assertThrows(RdmaException.class, () -> batch(frames(new byte[] {1}, new byte[] {2}), 1).copyMessages());
        assertThrows(RdmaException.class, () -> batch(frames(new byte[] {1}), 2).copyMessages());
    }

    @Test
    void shouldReportConsumptionOnceHoweverOftenReleased() {
        InboundBatch batch = batch(frames(new byte[] {1}), 1);
        batch.release();
        batch.release();
        verify(session, times(1)).release(batch);
    }
}
