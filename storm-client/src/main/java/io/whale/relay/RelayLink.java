package io.whale.relay;

import java.util.List;

/**
 * What a Netty client tells the relay about its connection: the relay credit it read from the peer, and that the
 * connection went down. Attached to a client by {@link RelayMember} before the first relay frame goes out on it.
 */
public interface RelayLink {
    void credited(List<RelayCredit.Entry> entries);

    void disconnected();
}
