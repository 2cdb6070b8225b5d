package io.whale.rdma.spi;

/** A peer's registered region, as attached through one endpoint. */
public interface RemoteRegion extends AutoCloseable {
    long address();

    int length();

    @Override
    void close();
}
