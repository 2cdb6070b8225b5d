package io.whale.flow;

/**
 * A connection to another worker that returns credit for what it carried: Storm's Netty client (patch 0011) and the
 * RDMA transport's. WOC finds a destination's {@link FrameWindow} by it, and the relay attaches its
 * {@link RelayLink} to it; a connection that is not one (the local transport) returns nothing, so its window is
 * {@link FrameWindow#UNBOUNDED} and a relay credits what it forwards on it at once.
 */
public interface CreditedConnection {
    /** The connection's window and relay link. */
    ConnectionCredit credit();

    /** Bounds the WOC frames in flight on this connection; credited from what the peer returns. */
    default FrameWindow frameWindow() {
        return credit().frameWindow();
    }

    /** Where relay credit read on this connection, and its loss, are reported; null until a relay frame left on it. */
    default RelayLink relayLink() {
        return credit().relayLink();
    }

    default void relayLink(RelayLink link) {
        credit().relayLink(link);
    }
}
