package io.whale.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.whale.woc.WocTestTopology;
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

/** A frame crosses Storm's unmodified Netty codec as an ordinary TaskMessage, next to stock messages. */
class BatchTupleOverNettyCodecTest {

    @Test
    void frameTaskIdTravelsThroughStormsNettyCodecUnchanged() {
        Map<String, Object> conf = WocTestTopology.conf();
        byte[] frame = BatchTupleCodec.encode(1, "default", new int[] {2, 3}, null,
                                              new KryoValuesSerializer(conf).serialize(List.of("x")));
        MessageBuffer buffer = new MessageBuffer(1 << 20);
        buffer.add(new BatchTupleMessage(2, frame));
        buffer.add(new TaskMessage(5, new byte[] {9, 8, 7}));
        INettySerializable batch = buffer.drain();
        ByteBuf wire = Unpooled.buffer(batch.encodeLength());
        batch.write(wire);

        EmbeddedChannel channel = new EmbeddedChannel(new MessageDecoder(new KryoValuesDeserializer(conf)));
        channel.writeInbound(wire);
        @SuppressWarnings("unchecked")
        List<TaskMessage> received = (List<TaskMessage>) channel.readInbound();
        channel.finishAndReleaseAll();

        assertEquals(2, received.size());
        assertEquals(BatchTupleMessage.FRAME_TASK_ID, received.get(0).task());
        assertArrayEquals(frame, received.get(0).message());
        assertEquals(5, received.get(1).task());
    }
}
