package io.whale.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.config.WhaleConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.netty.MessageDecoder;
import org.apache.storm.messaging.netty.SaslMessageToken;
import org.apache.storm.serialization.KryoValuesDeserializer;
import org.apache.storm.shade.io.netty.buffer.ByteBuf;
import org.apache.storm.shade.io.netty.buffer.Unpooled;
import org.apache.storm.shade.io.netty.channel.embedded.EmbeddedChannel;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * Storm's decoder on a worker's connections (patch 0025): a peer that announces a message longer than
 * whale.netty.message.max.bytes is disconnected before the worker buffers it; shorter messages decode as before.
 */
class MessageLengthLimitTest {
    private static final int LIMIT = 1 << 20;

    @Test
    void shouldCloseAConnectionThatAnnouncesATaskMessageAboveTheLimitBeforeItsBytesArrive() {
        EmbeddedChannel channel = new EmbeddedChannel(decoder());

        channel.writeInbound(header((short) 3, LIMIT + 1));

        assertFalse(channel.isOpen(), "the connection is closed");
        assertNull(channel.readInbound(), "nothing was decoded");
    }

    @Test
    void shouldCloseAConnectionThatAnnouncesAnOverlongSaslTokenBeforeAuthentication() {
        EmbeddedChannel channel = new EmbeddedChannel(decoder());

        channel.writeInbound(header(SaslMessageToken.IDENTIFIER, Integer.MAX_VALUE));

        assertFalse(channel.isOpen());
    }

    @Test
    void shouldDecodeATaskMessageOfExactlyTheLimit() {
        EmbeddedChannel channel = new EmbeddedChannel(decoder());
        byte[] payload = new byte[LIMIT];
        payload[LIMIT - 1] = 42;

        channel.writeInbound(Unpooled.wrappedBuffer(header((short) 3, LIMIT), Unpooled.wrappedBuffer(payload)));

        assertTrue(channel.isOpen());
        List<?> decoded = channel.readInbound();
        TaskMessage message = (TaskMessage) decoded.get(0);
        assertEquals(3, message.task());
        assertArrayEquals(payload, message.message());
        channel.finishAndReleaseAll();
    }

    @Test
    void shouldTakeTheLimitFromTheTopologyAndDefaultTo64MiB() {
        Map<String, Object> conf = new HashMap<>();
        assertEquals(64 << 20, MessageLengthLimit.of(conf));
        conf.put(WhaleConfig.NETTY_MESSAGE_MAX_BYTES, 2 << 20);
        assertEquals(2 << 20, MessageLengthLimit.of(conf));
        conf.put(WhaleConfig.NETTY_MESSAGE_MAX_BYTES, 1000);
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> MessageLengthLimit.of(conf));
        assertTrue(e.getMessage().contains(WhaleConfig.NETTY_MESSAGE_MAX_BYTES), e.getMessage());
    }

    private static MessageDecoder decoder() {
        return new MessageDecoder(new KryoValuesDeserializer(Utils.readDefaultConfig()), LIMIT);
    }

    private static ByteBuf header(short code, int length) {
        return Unpooled.buffer(6).writeShort(code).writeInt(length);
    }
}
