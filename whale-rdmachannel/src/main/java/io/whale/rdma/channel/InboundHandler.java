package io.whale.rdma.channel;

/**
 * Receives work requests of every channel accepted by a {@link ChannelServer}. Called on the engine's progress
 * thread, in order per channel: hand the batch off quickly (copy the messages out, or keep the batch and release
 * it later). A batch not yet released keeps its bytes in the sender's ring, which is how a slow consumer slows
 * the sender down.
 */
public interface InboundHandler {
    void onBatch(InboundBatch batch);

    /**
     * The notice sent to every sender right after its handshake (Storm: the worker's current backpressure
     * status), or null for none. Called on the progress thread.
     */
    default java.nio.ByteBuffer greeting() {
        return null;
    }

    /** A sender's connection ended; batches already delivered stay valid until released. */
    default void onChannelLost(String peer, String reason) {
    }
}
