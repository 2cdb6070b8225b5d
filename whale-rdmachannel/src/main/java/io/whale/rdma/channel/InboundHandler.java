package io.whale.rdma.channel;

/**
 * Receives work requests of every channel accepted by a {@link ChannelServer}. Called on the server's receive
 * threads ({@code whale.rdma.receive.threads}), never on the engine's progress thread, in order and one at a time
 * per channel; with more than one receive thread, different channels may be delivered concurrently. The handler
 * may take its time: a batch not yet released keeps its bytes in the sender's ring, which is how a slow consumer
 * slows its sender down, and while it runs the other channels of that receive thread wait.
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

    /**
     * A sender's connection ended (called after the batches delivered before it); batches stay valid until
     * released.
     */
    default void onChannelLost(String peer, String reason) {
    }
}
