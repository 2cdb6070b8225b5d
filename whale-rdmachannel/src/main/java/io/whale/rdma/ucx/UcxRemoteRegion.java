package io.whale.rdma.ucx;

import io.whale.rdma.spi.RemoteRegion;
import org.openucx.jucx.ucp.UcpRemoteKey;

final class UcxRemoteRegion implements RemoteRegion {
    private final UcxEngine engine;
    private final long address;
    private final int length;
    final UcpRemoteKey key;
    private boolean destroyed;

    UcxRemoteRegion(UcxEngine engine, long address, int length, UcpRemoteKey key) {
        this.engine = engine;
        this.address = address;
        this.length = length;
        this.key = key;
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public void close() {
        engine.closeQuietly(this::destroy);
    }

    /** Progress thread only; idempotent. */
    void destroy() {
        if (!destroyed) {
            destroyed = true;
            key.close();
        }
    }
}
