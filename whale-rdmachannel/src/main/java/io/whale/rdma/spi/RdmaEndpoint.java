package io.whale.rdma.spi;

import java.nio.ByteBuffer;

/**
 * A connection to one peer. Methods may be called from any thread; the operations are posted to the engine's
 * progress thread and complete there. Operations issued on one endpoint start in call order, but their
 * completions (and the peer's view of them) are not ordered: callers sequence them.
 */
public interface RdmaEndpoint {

    /** Two-sided control message (SEND/RECV or an active message). The bytes are copied before return. */
    void send(ByteBuffer message, Completion completion);

    /** Attaches a peer's region from its address, length and packed remote key. */
    RemoteRegion attach(long address, int length, byte[] remoteKey);

    /** One-sided READ: copies {@code length} bytes from the remote region into the local one. */
    void read(RemoteRegion source, long sourceOffset, RegisteredRegion target, long targetOffset, int length,
              Completion completion);

    /** The peer's address, for messages. */
    String peer();

    /** Closes the connection; pending operations fail and {@link EndpointHandler#onError} is not called. */
    void close();

    /** Checks that [offset, offset + length) lies inside a region of {@code regionLength} bytes. */
    static void checkBounds(String what, long regionLength, long offset, int length) {
        if (offset < 0 || length < 0 || offset + length > regionLength) {
            throw new IllegalArgumentException(what + " range [" + offset + ", " + (offset + length)
                    + ") is outside the region of " + regionLength + " bytes");
        }
    }
}
