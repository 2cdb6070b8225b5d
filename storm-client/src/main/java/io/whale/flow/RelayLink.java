package io.whale.flow;

import io.whale.wire.RelayCredit;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a connection to a member ({@link CreditedConnection}: Storm's Netty client, the RDMA transport's)
 * tells the relay: the relay credit it read from the peer, and that frames sent on it are lost (Netty: the connection
 * went down; RDMA: it gave up). Attached by the relay's member before the first relay frame goes out on it. As a
 * consumer it takes the credit the connection reads ({@link RelayCredit#takeCredits}).
 */
public interface RelayLink extends Consumer<List<RelayCredit.Entry>> {
    void credited(List<RelayCredit.Entry> entries);

    void disconnected();

    @Override
    default void accept(List<RelayCredit.Entry> entries) {
        credited(entries);
    }
}
