package io.whale.transport;

import io.whale.config.WhaleConfig;
import io.whale.config.WhaleConfigValidation;
import java.util.Map;
import org.apache.storm.shade.io.netty.handler.codec.TooLongFrameException;

/**
 * The longest message a worker's Netty transport takes from a peer ({@link WhaleConfig#NETTY_MESSAGE_MAX_BYTES}). Storm's
 * decoder reads a message's 31-bit length first and buffers until that many bytes arrived, ahead of SASL: without a
 * bound one connection, authenticated or not, could make a worker hold 2 GiB. A longer length fails the decoder
 * (patch 0025), which logs it and closes the connection before its bytes are buffered; Kafka bounds its requests so.
 */
public final class MessageLengthLimit {
    /** 64 MiB: far above a tuple, a WOC frame or a batch of them, far below what would take a worker's heap. */
    public static final int DEFAULT_BYTES = 64 << 20;

    private MessageLengthLimit() {
    }

    /** The limit of a topology (or of a daemon's conf). */
    public static int of(Map<String, Object> conf) {
        return WhaleConfigValidation.intOr(conf, WhaleConfig.NETTY_MESSAGE_MAX_BYTES, DEFAULT_BYTES);
    }

    /** Fails the decoding when a peer announces a {@code what} of {@code length} bytes above {@code limit}. */
    public static void check(int length, int limit, String what) throws TooLongFrameException {
        if (length > limit) {
            throw new TooLongFrameException("a peer announced a " + what + " of " + length + " bytes, above the " + limit
                + " that " + WhaleConfig.NETTY_MESSAGE_MAX_BYTES + " allows: closing its connection");
        }
    }
}
