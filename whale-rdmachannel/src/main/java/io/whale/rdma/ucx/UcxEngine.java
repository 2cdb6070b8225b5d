package io.whale.rdma.ucx;

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
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.openucx.jucx.UcxCallback;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpConstants;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpMemMapParams;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpRequestParams;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;
import org.openucx.jucx.ucs.UcsConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A UCX context and worker driven by one progress thread. Every UCX call is confined to that thread (the worker is
 * single-threaded); other threads hand work over through a queue. The progress thread also polls the bootstrap
 * sockets for peer liveness and runs the pollers (slicing timers) registered by the channel layer. Idle, it sleeps
 * in UCX's wait for events ({@link ProgressSleep}), woken by traffic, a posted task or a poller's deadline, and at
 * least every {@value #MAX_WAIT_MILLIS} ms to look at the bootstrap sockets.
 */
final class UcxEngine implements RdmaEngine {
    private static final Logger LOG = LoggerFactory.getLogger(UcxEngine.class);
    static final int CONTROL_AM_ID = 17;
    /** Control messages travel in the active-message header, which UCX bounds to about 8 KiB. */
    static final int MAX_CONTROL_BYTES = 4096;
    private static final long LIVENESS_CHECK_NANOS = 1_000_000;
    /** The longest sleep in UCX's wait: how late a peer lost behind a shared-memory-only connection is seen, idle. */
    static final long MAX_WAIT_MILLIS = 10;
    /** How long the worker must go without an event before it is destroyed, and the longest shutdown waits for that. */
    private static final long QUIET_BEFORE_DESTROY_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long QUIET_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final RdmaConfig config;
    private final long maxWaitNanos;
    private final ProgressWork work = new ProgressWork();
    private final Map<Long, UcxEndpoint> endpoints = new HashMap<>();
    /**
     * Endpoint closes UCX has not finished; progress thread only. Shutdown waits for every one: a worker destroyed with
     * an endpoint still closing aborted the process in UCX's lane purge (an assertion on a pending wire-up message).
     */
    private final List<UcpRequest> closing = new ArrayList<>();
    private final Set<UcxRegion> regions = new HashSet<>();
    private final AtomicLong connectionIds = new AtomicLong(System.nanoTime() & 0xffff_ffffL);
    private final Thread progressThread;
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private volatile boolean running = true;
    private volatile ProgressSleep sleep;

    private UcpContext context;
    private UcpWorker worker;
    private Selector selector;
    private byte[] workerAddress;
    /** Cleared when the transports in use cannot detect peer failures (e.g. shared memory only). */
    private boolean peerErrorHandling = true;

    UcxEngine(RdmaConfig config) {
        this(config, MAX_WAIT_MILLIS);
    }

    /** @param maxWaitMillis the longest sleep in UCX's wait (tests lengthen it: only an event may end a wait then) */
    UcxEngine(RdmaConfig config, long maxWaitMillis) {
        this.config = config;
        this.maxWaitNanos = TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
        this.progressThread = new Thread(this::runProgressLoop, "whale-rdma-ucx-progress");
        progressThread.setDaemon(true);
        progressThread.start();
        try {
            started.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error error) {
                throw error;
            }
            throw new RdmaException("UCX engine failed to start: " + cause, cause);
        } catch (InterruptedException | TimeoutException e) {
            running = false;
            throw new RdmaException("UCX engine did not start: " + e, e);
        }
    }

    static UcpRequestParams hostMemory() {
        // jucx 1.18's default memory type is refused by UCX 1.13 ("invalid memory type parameter"): always say HOST.
        return new UcpRequestParams().setMemoryType(UcsConstants.MEMORY_TYPE.UCS_MEMORY_TYPE_HOST);
    }

    /**
     * Opens UCX, with its wake-up feature when {@code wakeup} asks for it ({@value RdmaConfig#PROGRESS_WAIT}) and the
     * transports allow it; returns whether it has it.
     */
    private boolean openUcx(boolean wakeup) throws IOException {
        boolean events = wakeup;
        if (wakeup) {
            try {
                context = new UcpContext(ucpParams().requestWakeupFeature());
            } catch (RuntimeException e) {
                LOG.info("UCX cannot wake its progress thread on events here ({}); the thread polls", e.getMessage());
                events = false;
            }
        }
        if (!events) {
            context = new UcpContext(ucpParams());
        }
        worker = context.newWorker(new UcpWorkerParams());
        ByteBuffer address = worker.getAddress();
        workerAddress = new byte[address.remaining()];
        address.get(workerAddress);
        worker.setAmRecvHandler(CONTROL_AM_ID, (headerAddress, headerSize, data, replyEp) -> {
            dispatchControl(UcxUtils.getByteBufferView(headerAddress, headerSize));
            return UcsConstants.STATUS.UCS_OK;
        });
        selector = Selector.open();
        return events;
    }

    private UcpParams ucpParams() {
        UcpParams params = new UcpParams().requestAmFeature().requestRmaFeature();
        config.ucxSettings().forEach(params::setConfig);
        return params;
    }

    private void runProgressLoop() {
        long maxParkNanos = TimeUnit.MICROSECONDS.toNanos(config.pollMaxParkMicros());
        ProgressIdler idler;
        try {
            boolean wakeup = openUcx(config.progressWait());
            sleep = new ProgressSleep(progressThread, work::hasTasks, wakeup ? worker : null, maxParkNanos, maxWaitNanos);
            idler = new ProgressIdler(config.progressSpins(), config.progressYields(), maxParkNanos,
                wakeup ? maxWaitNanos : 0);
            started.complete(null);
        } catch (Throwable t) {
            started.completeExceptionally(t);
            return;
        }
        long nextLivenessCheck = 0;
        while (running) {
            sleep.beginTurn();
            int done = work.runTasks();
            done += progressQuietly();
            long now = System.nanoTime();
            long deadline = work.runPollers(now);
            if (now - nextLivenessCheck >= 0) {
                done += checkLiveness();
                nextLivenessCheck = now + LIVENESS_CHECK_NANOS;
            }
            ProgressIdler.Step step = idler.next(done, now, deadline);
            switch (step.kind()) {
                case SPIN -> Thread.onSpinWait();
                case YIELD -> Thread.yield();
                case PARK, WAIT -> sleep.sleep(step);
                default -> {
                    // RUN: another turn at once
                }
            }
        }
        shutdownUcx();
    }

    private int progressQuietly() {
        try {
            return worker.progress();
        } catch (Exception e) {
            LOG.error("UCX progress failed", e);
            return 0;
        }
    }

    private int checkLiveness() {
        try {
            if (selector.selectNow() == 0) {
                return 0;
            }
        } catch (IOException e) {
            LOG.warn("liveness selector failed", e);
            return 0;
        }
        int count = 0;
        ByteBuffer scratch = ByteBuffer.allocate(64);
        for (SelectionKey key : selector.selectedKeys()) {
            UcxEndpoint endpoint = (UcxEndpoint) key.attachment();
            scratch.clear();
            int read;
            try {
                read = ((SocketChannel) key.channel()).read(scratch);
            } catch (IOException e) {
                read = -1;
            }
            if (read < 0) {
                key.cancel();
                fail(endpoint, "peer " + endpoint.peer() + " closed its connection (process gone?)");
            }
            count++;
        }
        selector.selectedKeys().clear();
        return count;
    }

    private void dispatchControl(ByteBuffer header) {
        long target = header.getLong();
        UcxEndpoint endpoint = endpoints.get(target);
        if (endpoint == null) {
            LOG.debug("control message for unknown connection {} dropped", target);
            return;
        }
        endpoint.handler().onControl(endpoint, header.slice());
    }

    /** Marks an endpoint failed (once), releases its resources and tells its handler. Progress thread only. */
    void fail(UcxEndpoint endpoint, String reason) {
        if (endpoints.remove(endpoint.connectionId()) == null) {
            return;
        }
        endpoint.markReleased();
        work.post(() -> release(endpoint)); // not inside the UCX callback that reported the failure
        LOG.info("RDMA connection to {} lost: {}", endpoint.peer(), reason);
        endpoint.handler().onError(endpoint, reason);
    }

    void closeEndpoint(UcxEndpoint endpoint) {
        execute(() -> {
            if (endpoints.remove(endpoint.connectionId()) != null) {
                release(endpoint);
            }
        });
    }

    @Override
    public RegisteredRegion allocate(int length, RegionAccess access) {
        if (length <= 0) {
            throw new IllegalArgumentException("region length must be positive: " + length);
        }
        return call(() -> {
            UcxRegion region = new UcxRegion(this,
                    context.memoryMap(new UcpMemMapParams().allocate().setLength(length).setProtection(protection(access))));
            regions.add(region);
            return region;
        });
    }

    /**
     * The UCX protection a region is mapped with: remote READ for a ring, no remote access for a mirror, never remote
     * WRITE. Devices that register memory (InfiniBand, RoCE) enforce it; UCX's shared-memory and TCP transports, which
     * copy through the peer process or a socket, do not.
     */
    static long protection(RegionAccess access) {
        long local = UcpConstants.UCP_MEM_MAP_PROT_LOCAL_READ | UcpConstants.UCP_MEM_MAP_PROT_LOCAL_WRITE;
        return access == RegionAccess.PEER_READS ? local | UcpConstants.UCP_MEM_MAP_PROT_REMOTE_READ : local;
    }

    long bindTimeoutMillis() {
        return config.bindTimeoutMillis();
    }

    @Override
    public RdmaListener listen(InetSocketAddress bindAddress,
                               Function<RdmaEndpoint, EndpointHandler> handlerFactory) {
        return new UcxListener(this, bindAddress, handlerFactory);
    }

    /**
     * Bootstrap of an accepted socket, run on the listener's accept thread. The endpoint is registered before the
     * reply goes out, so the peer's first control message always finds it.
     */
    void accept(SocketChannel channel, Function<RdmaEndpoint, EndpointHandler> handlerFactory) throws IOException {
        Bootstrap.PeerInfo peer = Bootstrap.read(channel, (int) config.handshakeTimeoutMillis());
        long id = connectionIds.incrementAndGet();
        String peerName = String.valueOf(channel.getRemoteAddress());
        UcxEndpoint endpoint = new UcxEndpoint(this, id, peer.connectionId(), peerName, channel);
        String failure = call(() -> {
            endpoint.setHandler(handlerFactory.apply(endpoint));
            return register(endpoint, peer.workerAddress());
        });
        if (failure != null) {
            throw new RdmaException(failure);
        }
        try {
            Bootstrap.write(channel, workerAddress, id);
        } finally {
            call(() -> watch(endpoint));
        }
    }

    @Override
    public RdmaEndpoint connect(InetSocketAddress remote, EndpointHandler handler, Duration timeout) {
        if (inProgressThread()) {
            throw new IllegalStateException("connect blocks: do not call it on the progress thread");
        }
        SocketChannel channel = null;
        try {
            channel = Bootstrap.open();
            Bootstrap.connect(channel, remote, (int) timeout.toMillis());
            long id = connectionIds.incrementAndGet();
            Bootstrap.write(channel, workerAddress, id);
            Bootstrap.PeerInfo peer = Bootstrap.read(channel, (int) timeout.toMillis());
            UcxEndpoint endpoint = new UcxEndpoint(this, id, peer.connectionId(), remote.toString(), channel);
            endpoint.setHandler(handler);
            String failure = call(() -> register(endpoint, peer.workerAddress()));
            if (failure != null) {
                throw new RdmaException(failure);
            }
            call(() -> watch(endpoint));
            return endpoint;
        } catch (IOException e) {
            closeSocket(channel);
            throw new RdmaException("cannot connect to " + remote + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeSocket(channel);
            throw e;
        }
    }

    /** Opens the UCX endpoint; returns the failure reason, or null. Progress thread. */
    private String register(UcxEndpoint endpoint, byte[] peerWorkerAddress) {
        endpoints.put(endpoint.connectionId(), endpoint);
        try {
            openEndpoint(endpoint, peerWorkerAddress);
            return null;
        } catch (RuntimeException e) {
            String reason = "cannot open UCX endpoint to " + endpoint.peer() + ": " + e.getMessage();
            fail(endpoint, reason);
            return reason;
        }
    }

    /** Watches the bootstrap socket: the peer's process ending closes it. Progress thread. */
    private Void watch(UcxEndpoint endpoint) {
        try {
            endpoint.socket().configureBlocking(false);
            endpoint.socket().register(selector, SelectionKey.OP_READ, endpoint);
        } catch (IOException e) {
            fail(endpoint, "peer " + endpoint.peer() + " closed its connection: " + e.getMessage());
        }
        return null;
    }

    private void openEndpoint(UcxEndpoint endpoint, byte[] peerWorkerAddress) {
        if (peerErrorHandling) {
            try {
                endpoint.open(worker, peerWorkerAddress, true);
                return;
            } catch (RuntimeException e) {
                peerErrorHandling = false;
                LOG.info("UCX transports here cannot report peer failures ({}); the bootstrap socket will",
                        e.getMessage());
            }
        }
        endpoint.open(worker, peerWorkerAddress, false);
    }

    private static void closeSocket(SocketChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // already failing
            }
        }
    }

    @Override
    public void execute(Runnable task) {
        if (!running) {
            throw new RdmaException("UCX engine is closed");
        }
        work.post(task);
        sleep.wake();
    }

    @Override
    public void wake() {
        sleep.wake();
    }

    /** Runs {@code body} on the progress thread and returns its result; direct call when already there. */
    <T> T call(Supplier<T> body) {
        if (inProgressThread()) {
            return body.get();
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        execute(() -> {
            try {
                result.complete(body.get());
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            }
        });
        try {
            return result.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new RdmaException("UCX call failed: " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RdmaException("interrupted while waiting for the UCX progress thread", e);
        } catch (TimeoutException e) {
            throw new RdmaException("UCX progress thread did not answer within 30 s", e);
        }
    }

    void forget(UcxRegion region) {
        regions.remove(region);
    }

    void closeQuietly(Runnable closer) {
        if (!running) {
            return;
        }
        execute(() -> {
            try {
                closer.run();
            } catch (RuntimeException e) {
                LOG.debug("closing a UCX resource failed", e);
            }
        });
    }

    @Override
    public void addPoller(Poller poller) {
        work.addPoller(poller);
        sleep.wake();
    }

    @Override
    public void removePoller(Poller poller) {
        work.removePoller(poller);
    }

    /** Waits for UCX events the progress thread has begun. */
    long waitsBegun() {
        return sleep.waitsBegun();
    }

    @Override
    public boolean inProgressThread() {
        return Thread.currentThread() == progressThread;
    }

    @Override
    public void close() {
        if (!running) {
            return;
        }
        execute(() -> running = false);
        if (!inProgressThread()) {
            try {
                progressThread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Releases {@code endpoint} and keeps its close for shutdown to wait for. Progress thread only. */
    private void release(UcxEndpoint endpoint) {
        closing.removeIf(UcpRequest::isCompleted);
        UcpRequest request = endpoint.release();
        if (request != null) {
            closing.add(request);
        }
    }

    /**
     * Flushes the worker and progresses it until it has had no event for {@link #QUIET_BEFORE_DESTROY_NANOS}. UCX's
     * own endpoints (its wire-up reply to a peer still connecting) are not ours to close, and a worker destroyed with
     * such a reply pending aborts the process in the same lane purge (InProcessChannelTest's JVM in a CI run).
     */
    private void awaitQuietWorker() {
        UcpRequest flush;
        try {
            flush = worker.flushNonBlocking(new UcxCallback());
        } catch (RuntimeException e) {
            LOG.debug("flushing the UCX worker before its destruction failed", e);
            flush = null;
        }
        long start = System.nanoTime();
        long quietSince = start;
        long now = start;
        while (now - start < QUIET_DEADLINE_NANOS && now - quietSince < QUIET_BEFORE_DESTROY_NANOS) {
            if (progressQuietly() > 0 || flush != null && !flush.isCompleted()) {
                quietSince = System.nanoTime();
            }
            now = System.nanoTime();
        }
    }

    private void shutdownUcx() {
        work.runTasks();
        List.copyOf(endpoints.values()).forEach(this::release);
        endpoints.clear();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while ((work.hasTasks() || closing.stream().anyMatch(request -> !request.isCompleted())) && System.nanoTime() < deadline) {
            work.runTasks(); // a connection that failed meanwhile posted its release
            progressQuietly();
        }
        awaitQuietWorker();
        List.copyOf(regions).forEach(UcxRegion::deregister); // UCX aborts the process if memory is still mapped
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        sleep.close();
        worker.close();
        context.close();
    }
}
