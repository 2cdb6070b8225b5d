package io.whale.rdma.channel;

import io.whale.rdma.spi.Completion;
import io.whale.rdma.spi.RdmaEndpoint;
import io.whale.rdma.spi.RegisteredRegion;
import io.whale.rdma.spi.RemoteRegion;
import java.nio.ByteBuffer;

/** A real endpoint with a test's change to some of its calls: every call it does not override goes to {@code delegate}. */
abstract class DelegatingEndpoint implements RdmaEndpoint {
    /** Set at construction or, for a connection being opened, once the engine returned it. */
    protected volatile RdmaEndpoint delegate;

    DelegatingEndpoint(RdmaEndpoint delegate) {
        this.delegate = delegate;
    }

    @Override
    public void send(ByteBuffer message, Completion completion) {
        delegate.send(message, completion);
    }

    @Override
    public RemoteRegion attach(long address, int length, byte[] remoteKey) {
        return delegate.attach(address, length, remoteKey);
    }

    @Override
    public void read(RemoteRegion source, long sourceOffset, RegisteredRegion target, long targetOffset, int length,
                     Completion completion) {
        delegate.read(source, sourceOffset, target, targetOffset, length, completion);
    }

    @Override
    public String peer() {
        return delegate.peer();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
