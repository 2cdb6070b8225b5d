package io.whale.rdma.spi;

import java.nio.ByteBuffer;

/** Receives an endpoint's control messages and its failure; both run on the engine's progress thread. */
public interface EndpointHandler {
    /** {@code message} is valid only during the call. */
    void onControl(RdmaEndpoint endpoint, ByteBuffer message);

    /** The connection is lost (peer died, network error). Called at most once per endpoint. */
    void onError(RdmaEndpoint endpoint, String reason);
}
