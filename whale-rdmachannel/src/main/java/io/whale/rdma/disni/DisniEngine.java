package io.whale.rdma.disni;

import com.ibm.disni.RdmaActiveEndpointGroup;
import com.ibm.disni.RdmaServerEndpoint;
import com.ibm.disni.verbs.IbvPd;
import io.whale.rdma.RdmaConfig;
import io.whale.rdma.RdmaException;
import io.whale.rdma.spi.EndpointHandler;
import io.whale.rdma.spi.Poller;
import io.whale.rdma.spi.ProgressIdler;
import io.whale.rdma.spi.ProgressWork;
import io.whale.rdma.spi.RdmaEndpoint;
import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RdmaListener;
import io.whale.rdma.spi.RegionAccess;
import io.whale.rdma.spi.RegisteredRegion;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DiSNI endpoint group (its completion-queue threads are shared by all endpoints) plus one progress thread on
 * which every callback of the SPI runs, as with UCX.
 */
final class DisniEngine implements RdmaEngine {
    private static final Logger LOG = LoggerFactory.getLogger(DisniEngine.class);
    private static final int MAX_WORK_REQUESTS = 1024;
    private static final int CQ_SIZE = 2 * MAX_WORK_REQUESTS;

    private final RdmaConfig config;
    private final RdmaActiveEndpointGroup<VerbsEndpoint> group;
    private final ProgressWork work = new ProgressWork();
    private final Thread progressThread;
    private volatile boolean running = true;
    private volatile IbvPd protectionDomain;

    DisniEngine(RdmaConfig config) throws IOException {
        this.config = config;
        this.group = new RdmaActiveEndpointGroup<>((int) config.handshakeTimeoutMillis(), false,
                MAX_WORK_REQUESTS, 1, CQ_SIZE);
        group.init((id, serverSide) -> new VerbsEndpoint(group, id, serverSide));
        progressThread = new Thread(this::runLoop, "whale-rdma-disni-progress");
        progressThread.setDaemon(true);
        progressThread.start();
    }

    private void runLoop() {
        ProgressIdler idler = new ProgressIdler(config.progressSpins(), config.progressYields(),
            TimeUnit.MICROSECONDS.toNanos(config.pollMaxParkMicros()), 0);
        while (running) {
            int done = work.runTasks();
            long now = System.nanoTime();
            long deadline = work.runPollers(now);
            ProgressIdler.Step step = idler.next(done, now, deadline);
            switch (step.kind()) {
                case SPIN -> Thread.onSpinWait();
                case YIELD -> Thread.yield();
                case PARK, WAIT -> LockSupport.parkNanos(step.nanos());
                default -> {
                    // RUN: another turn at once
                }
            }
        }
    }

    /** The device's protection domain, known once the first endpoint is connected. */
    IbvPd protectionDomain() {
        IbvPd pd = protectionDomain;
        if (pd == null) {
            throw new RdmaException("DiSNI registers memory with the device's protection domain, which exists only"
                    + " after the first connection is established");
        }
        return pd;
    }

    /** Wraps a connected verbs endpoint; the handler factory runs before any control message arrives. */
    private DisniEndpoint adopt(VerbsEndpoint verbs, String peer,
                                Function<RdmaEndpoint, EndpointHandler> handlerFactory) throws IOException {
        if (protectionDomain == null) {
            protectionDomain = verbs.getPd();
        }
        DisniEndpoint endpoint = new DisniEndpoint(verbs, this::execute, peer);
        endpoint.setHandler(handlerFactory.apply(endpoint));
        verbs.bind(endpoint);
        endpoint.startControl();
        return endpoint;
    }

    @Override
    public RegisteredRegion allocate(int length, RegionAccess access) {
        return new DisniRegion(this, ByteBuffer.allocateDirect(length), access);
    }

    @Override
    public RdmaListener listen(InetSocketAddress bindAddress,
                               Function<RdmaEndpoint, EndpointHandler> handlerFactory) {
        RdmaServerEndpoint<VerbsEndpoint> server;
        try {
            server = group.createServerEndpoint();
            server.bind(bindAddress, 128);
        } catch (Exception e) {
            throw new RdmaException("cannot listen on " + bindAddress + " with DiSNI: " + e, e);
        }
        Thread acceptor = new Thread(() -> acceptLoop(server, handlerFactory), "whale-rdma-disni-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        return new RdmaListener() {
            @Override
            public InetSocketAddress address() {
                try {
                    return (InetSocketAddress) server.getSrcAddr();
                } catch (Exception e) {
                    throw new RdmaException("listener is closed", e);
                }
            }

            @Override
            public void close() {
                try {
                    server.close();
                } catch (IOException | InterruptedException e) {
                    LOG.debug("closing the DiSNI server endpoint failed", e);
                }
            }
        };
    }

    private void acceptLoop(RdmaServerEndpoint<VerbsEndpoint> server,
                            Function<RdmaEndpoint, EndpointHandler> handlerFactory) {
        while (running && !server.isClosed()) {
            try {
                VerbsEndpoint verbs = server.accept();
                String peer = String.valueOf(verbs.getDstAddr());
                execute(() -> {
                    try {
                        adopt(verbs, peer, handlerFactory);
                    } catch (IOException e) {
                        LOG.warn("cannot set up the DiSNI endpoint from {}: {}", peer, e.getMessage());
                    }
                });
            } catch (IOException e) {
                if (!server.isClosed()) {
                    LOG.warn("DiSNI accept failed: {}", e.getMessage());
                }
            }
        }
    }

    @Override
    public RdmaEndpoint connect(InetSocketAddress remote, EndpointHandler handler, Duration timeout) {
        try {
            VerbsEndpoint verbs = group.createEndpoint();
            verbs.connect(remote, (int) timeout.toMillis());
            return adopt(verbs, remote.toString(), endpoint -> handler);
        } catch (Exception e) {
            throw new RdmaException("cannot connect to " + remote + " with DiSNI: " + e.getMessage(), e);
        }
    }

    @Override
    public void execute(Runnable task) {
        if (!running) {
            throw new RdmaException("DiSNI engine is closed");
        }
        work.post(task);
        LockSupport.unpark(progressThread);
    }

    @Override
    public void addPoller(Poller poller) {
        work.addPoller(poller);
        wake();
    }

    @Override
    public void removePoller(Poller poller) {
        work.removePoller(poller);
    }

    @Override
    public void wake() {
        LockSupport.unpark(progressThread);
    }

    @Override
    public boolean inProgressThread() {
        return Thread.currentThread() == progressThread;
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(progressThread);
        try {
            group.close();
        } catch (IOException e) {
            LOG.debug("closing the DiSNI group failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
