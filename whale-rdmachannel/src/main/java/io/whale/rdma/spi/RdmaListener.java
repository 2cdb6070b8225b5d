package io.whale.rdma.spi;

import java.net.InetSocketAddress;

/** A bound listener; closing it stops accepting but leaves accepted endpoints open. */
public interface RdmaListener extends AutoCloseable {
    InetSocketAddress address();

    @Override
    void close();
}
