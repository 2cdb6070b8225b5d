package io.whale.rdma.channel;

import io.whale.rdma.spi.EndpointHandler;
import io.whale.rdma.spi.Poller;
import io.whale.rdma.spi.RdmaEndpoint;
import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RdmaListener;
import io.whale.rdma.spi.RegionAccess;
import io.whale.rdma.spi.RegisteredRegion;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Function;

/** A real engine with a test's change to some of its calls: every call it does not override goes to {@code engine}. */
abstract class DelegatingEngine implements RdmaEngine {
    protected final RdmaEngine engine;

    DelegatingEngine(RdmaEngine engine) {
        this.engine = engine;
    }

    @Override
    public RegisteredRegion allocate(int length, RegionAccess access) {
        return engine.allocate(length, access);
    }

    @Override
    public RdmaListener listen(InetSocketAddress bindAddress, Function<RdmaEndpoint, EndpointHandler> handlerFactory) {
        return engine.listen(bindAddress, handlerFactory);
    }

    @Override
    public RdmaEndpoint connect(InetSocketAddress remote, EndpointHandler handler, Duration timeout) {
        return engine.connect(remote, handler, timeout);
    }

    @Override
    public void execute(Runnable task) {
        engine.execute(task);
    }

    @Override
    public void addPoller(Poller poller) {
        engine.addPoller(poller);
    }

    @Override
    public void removePoller(Poller poller) {
        engine.removePoller(poller);
    }

    @Override
    public void wake() {
        engine.wake();
    }

    @Override
    public boolean inProgressThread() {
        return engine.inProgressThread();
    }

    @Override
    public void close() {
        engine.close();
    }
}
