package io.whale.flow;

import io.whale.wire.RelayCredit;
import java.util.List;

/**
 * What a connection to a member ({@link io.whale.flow.CreditedConnection}: Storm's Netty client, the RDMA transport's)
 * tells the relay: the relay credit it read from the peer, and that frames sent on it are lost (Netty: the connection
 * went down; RDMA: it gave up). Attached by {@link RelayMember} before the first relay frame goes out on it.
 */
public interface RelayLink {
    void credited(List<RelayCredit.Entry> entries);

    void disconnected();
}
