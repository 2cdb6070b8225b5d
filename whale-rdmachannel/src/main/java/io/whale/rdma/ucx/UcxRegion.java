package io.whale.rdma.ucx;

import io.whale.rdma.spi.RegisteredRegion;
import java.nio.ByteBuffer;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpMemory;

/** Memory allocated by UCX itself ({@code ucp_mem_map} with ALLOCATE): the only kind UCX reads truly one-sidedly. */
final class UcxRegion implements RegisteredRegion {
    private final UcxEngine engine;
    final UcpMemory memory;
    private final ByteBuffer view;
    private final byte[] remoteKey;
    private boolean deregistered;

    UcxRegion(UcxEngine engine, UcpMemory memory) {
        this.engine = engine;
        this.memory = memory;
        this.view = UcxUtils.getByteBufferView(memory.getAddress(), memory.getLength());
        ByteBuffer packed = memory.getRemoteKeyBuffer();
        this.remoteKey = new byte[packed.remaining()];
        packed.get(remoteKey);
    }

    @Override
    public ByteBuffer buffer() {
        return view.duplicate().clear();
    }

    @Override
    public long address() {
        return memory.getAddress();
    }

    @Override
    public int length() {
        return (int) memory.getLength();
    }

    @Override
    public byte[] remoteKey() {
        return remoteKey.clone();
    }

    @Override
    public void close() {
        engine.closeQuietly(this::deregister);
    }

    /** Progress thread only; idempotent. */
    void deregister() {
        if (!deregistered) {
            deregistered = true;
            engine.forget(this);
            memory.deregister();
        }
    }
}
