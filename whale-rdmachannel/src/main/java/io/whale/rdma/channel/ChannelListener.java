package io.whale.rdma.channel;

/** State changes of a {@link ChannelSender}; called on RDMA threads, so implementations must not block. */
public interface ChannelListener {
    default void onConnected(String peer) {
    }

    /** The connection was lost; unconsumed messages stay in the ring and are sent again after reconnecting. */
    default void onDisconnected(String peer, String reason) {
    }

    /** A notice from the receiver ({@link ChannelServer#broadcast}); valid only during the call. */
    default void onNotice(java.nio.ByteBuffer notice) {
    }

    /** The channel gave up (secret refused, or reconnect attempts exhausted); sends now throw. */
    default void onFailed(String peer, String reason) {
    }

    ChannelListener NONE = new ChannelListener() {
    };
}
