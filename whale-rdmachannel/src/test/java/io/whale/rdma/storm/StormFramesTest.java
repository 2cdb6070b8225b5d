package io.whale.rdma.storm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.netty.BackPressureStatus;
import org.junit.jupiter.api.Test;

class StormFramesTest {
    @Test
    void shouldRoundTripATaskMessageIncludingWocFrameTasks() {
        byte[] payload = {1, 2, 3, 4, 5};
        ByteBuffer header = StormFrames.taskHeader(-7000);
        ByteBuffer message = ByteBuffer.allocate(header.remaining() + payload.length).put(header).put(payload).flip();
        TaskMessage decoded = StormFrames.taskMessage(message);
        assertEquals(-7000, decoded.task());
        assertArrayEquals(payload, decoded.message());
    }

    @Test
    void shouldRoundTripBackpressureAndLoadNotices() {
        ByteBuffer bp = StormFrames.backPressure(new BackPressureStatus("w1", List.of(3, 9), List.of(4)));
        assertEquals(StormFrames.BACKPRESSURE, bp.get());
        StormFrames.BackPressureUpdate update = StormFrames.readBackPressure(bp);
        assertEquals(List.of(3, 9), update.underPressure());
        assertEquals(List.of(4), update.relieved());

        ByteBuffer load = StormFrames.load(Map.of(3, 0.5, 7, 0.0));
        assertEquals(StormFrames.LOAD, load.get());
        assertEquals(Map.of(3, 0.5, 7, 0.0), StormFrames.readLoad(load));
    }

    @Test
    void shouldRoundTripACreditNotice() {
        ByteBuffer credit = StormFrames.credit(new TaskMessage(-7010, new byte[] {0, 0, 0, 12}));
        assertEquals(StormFrames.CREDIT, credit.get());
        TaskMessage decoded = StormFrames.readCredit(credit);
        assertEquals(-7010, decoded.task());
        assertArrayEquals(new byte[] {0, 0, 0, 12}, decoded.message());
    }

    @Test
    void shouldTreatNullTaskListsAsEmpty() {
        ByteBuffer bp = StormFrames.backPressure(new BackPressureStatus("w1", null, null));
        bp.get();
        assertEquals(new StormFrames.BackPressureUpdate(List.of(), List.of()), StormFrames.readBackPressure(bp));
    }

    @Test
    void shouldRejectANoticeWhoseCountExceedsItsBytes() {
        ByteBuffer garbled = ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE).putInt(1).flip();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StormFrames.readLoad(garbled));
        assertEquals("notice announces 2147483647 entries but holds 4 bytes", e.getMessage());
    }

    @Test
    void shouldRejectAMessageOfAnotherKindAsATaskMessage() {
        assertThrows(IllegalArgumentException.class,
            () -> StormFrames.taskMessage(ByteBuffer.wrap(new byte[] {StormFrames.LOAD, 0, 0, 0, 0})));
    }
}
