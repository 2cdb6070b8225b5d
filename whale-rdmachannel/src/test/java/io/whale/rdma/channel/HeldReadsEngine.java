package io.whale.rdma.channel;

import io.whale.rdma.spi.Completion;
import io.whale.rdma.spi.EndpointHandler;
import io.whale.rdma.spi.RdmaEndpoint;
import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RdmaListener;
import io.whale.rdma.spi.RegionAccess;
import io.whale.rdma.spi.RegisteredRegion;
import io.whale.rdma.spi.RemoteRegion;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A real receiving engine whose accepted connections never finish a READ until the test says so (the READs stay in
 * flight, as on a slow path, until they are failed or performed), and which tells whether its local regions (the mirrors) were closed and whether a
 * connection's end reached its handler.
 */
final class HeldReadsEngine extends DelegatingEngine {
    private final List<Completion> heldReads = new CopyOnWriteArrayList<>();
    private final List<Runnable> heldOperations = new CopyOnWriteArrayList<>();
    private final List<Region> localRegions = new CopyOnWriteArrayList<>();
    private volatile boolean disconnected;

    HeldReadsEngine(RdmaEngine engine) {
        super(engine);
    }

    int heldReads() {
        return heldReads.size();
    }

    /** Whether a connection's end was handed to its handler (and the handler returned). */
    boolean disconnected() {
        return disconnected;
    }

    /** Whether every local region allocated so far was closed. */
    boolean localRegionsClosed() {
        return !localRegions.isEmpty() && localRegions.stream().allMatch(r -> r.closed);
    }

    /** Fails the READs held so far on the progress thread, as a closed connection fails its operations. */
    void failHeldReads(String reason) {
        execute(() -> heldReads.forEach(completion -> completion.onError(reason)));
    }

    /** Performs the READs held so far, as the transport would have. */
    void performHeldReads() {
        execute(() -> heldOperations.forEach(Runnable::run));
    }

    @Override
    public RegisteredRegion allocate(int length, RegionAccess access) {
        RegisteredRegion region = engine.allocate(length, access);
        if (access != RegionAccess.LOCAL) {
            return region;
        }
        Region local = new Region(region);
        localRegions.add(local);
        return local;
    }

    @Override
    public RdmaListener listen(InetSocketAddress bindAddress, Function<RdmaEndpoint, EndpointHandler> handlerFactory) {
        return engine.listen(bindAddress, accepted -> {
            Endpoint endpoint = new Endpoint(accepted);
            EndpointHandler handler = handlerFactory.apply(endpoint);
            return new EndpointHandler() {
                @Override
                public void onControl(RdmaEndpoint from, ByteBuffer message) {
                    handler.onControl(endpoint, message);
                }

                @Override
                public void onError(RdmaEndpoint from, String reason) {
                    handler.onError(endpoint, reason);
                    disconnected = true;
                }
            };
        });
    }

    private static final class Region implements RegisteredRegion {
        private final RegisteredRegion delegate;
        private volatile boolean closed;

        Region(RegisteredRegion delegate) {
            this.delegate = delegate;
        }

        @Override
        public ByteBuffer buffer() {
            return delegate.buffer();
        }

        @Override
        public long address() {
            return delegate.address();
        }

        @Override
        public int length() {
            return delegate.length();
        }

        @Override
        public byte[] remoteKey() {
            return delegate.remoteKey();
        }

        @Override
        public void close() {
            closed = true;
            delegate.close();
        }
    }

    private final class Endpoint extends DelegatingEndpoint {
        Endpoint(RdmaEndpoint delegate) {
            super(delegate);
        }

        @Override
        public void read(RemoteRegion source, long sourceOffset, RegisteredRegion target, long targetOffset, int length,
                         Completion completion) {
            heldReads.add(completion);
            RegisteredRegion real = target instanceof Region region ? region.delegate : target;
            heldOperations.add(() -> delegate.read(source, sourceOffset, real, targetOffset, length, completion));
        }
    }
}
