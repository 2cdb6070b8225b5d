package io.whale.woc;

import io.whale.relay.RelayLink;

/**
 * A connection to another worker that returns credit for what it carried: Storm's Netty client (patches 0011, 0014
 * and 0019) and the RDMA transport's. WOC finds a destination's {@link FrameWindow} by it, and the relay attaches its
 * {@link RelayLink} to it; a connection that is not one (the local transport) returns nothing, so its window is
 * {@link FrameWindow#UNBOUNDED} and a relay credits what it forwards on it at once.
 */
public interface CreditedConnection {
    /** Bounds the WOC frames in flight on this connection; credited from what the peer returns. */
    FrameWindow frameWindow();

    /** Where relay credit read on this connection, and its loss, are reported; null until a relay frame left on it. */
    RelayLink relayLink();

    void relayLink(RelayLink link);
}
