package io.whale.rdma.spi;

import java.nio.ByteBuffer;

/** Local memory registered with the device once, for what its {@link RegionAccess} lets peers holding its remote key do. */
public interface RegisteredRegion extends AutoCloseable {
    /** A view of the whole region (position 0, limit = length); callers use absolute get/put. */
    ByteBuffer buffer();

    long address();

    int length();

    /** The packed remote key a peer passes to {@link RdmaEndpoint#attach}. */
    byte[] remoteKey();

    @Override
    void close();
}
