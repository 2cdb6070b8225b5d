package io.whale.rdma.channel;

import io.whale.rdma.RdmaConfig;
import io.whale.rdma.RdmaException;
import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RdmaListener;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts channels on one address and delivers their work requests to one {@link InboundHandler}. Remembers, per
 * sender channel, the last work request it delivered, so a sender that reconnects does not deliver it twice.
 *
 * <p>The handler runs on the server's own receive threads ({@code whale.rdma.receive.threads}), not on the
 * engine's progress thread, so a slow handler does not hold up the sends, READs and timers of the engine's other
 * connections. Each channel's work requests are delivered in order, one at a time. What waits for a receive
 * thread is bounded by the senders' rings: a batch keeps its ring bytes until the handler releases it, so a slow
 * handler fills its sender's ring and the sender gets backpressure; nothing is dropped.
 */
public final class ChannelServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChannelServer.class);
    private static final int REMEMBERED_CHANNELS = 4096;

    private final InboundHandler handler;
    private final RdmaEngine engine;
    private final RdmaListener listener;
    private final InetSocketAddress address;
    /** Sessions past the handshake; progress thread only. */
    private final Set<InboundSession> admitted = new HashSet<>();
    private final AtomicLong refused = new AtomicLong();
    private final int maxRingBytes;
    private final ExecutorService receiveThreads;
    /** The receive threads' names: the port bound once it is known. */
    private volatile String threadPrefix;
    /** Progress thread only: set by {@link #close()}, after which no channel is admitted. */
    private boolean closing;
    /** Progress thread only. */
    private final Map<Long, Long> lastDelivered = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
            return size() > REMEMBERED_CHANNELS;
        }
    };

    ChannelServer(RdmaEngine engine, Handshake handshake, RdmaConfig config, ScheduledExecutorService timer,
                  InetSocketAddress bindAddress, InboundHandler handler) {
        this.handler = handler;
        this.engine = engine;
        this.maxRingBytes = config.ringBytes();
        int receiveThreadCount = config.receiveThreads();
        AtomicInteger threadNumber = new AtomicInteger();
        // Before listening: a peer may connect, and its first batch arrive, before listen() has returned (a worker's
        // peers retry every few hundred ms). Unbounded queue, but it holds at most one turn per channel (see
        // OrderedDelivery).
        this.receiveThreads = new ThreadPoolExecutor(receiveThreadCount, receiveThreadCount, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, threadPrefix + threadNumber.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        this.threadPrefix = "whale-rdma-receive-" + bindAddress.getPort() + "-";
        this.listener = engine.listen(bindAddress, endpoint -> {
            InboundSession session = new InboundSession(this, engine, handshake, endpoint, config.consumedDelayNanos());
            long timeout = config.handshakeTimeoutMillis();
            timer.schedule(() -> onProgressThread(() -> session.handshakeDeadline(timeout)), timeout, TimeUnit.MILLISECONDS);
            return session;
        });
        this.address = listener.address();
        this.threadPrefix = "whale-rdma-receive-" + address.getPort() + "-";
    }

    /** A delivery queue for one accepted channel; progress thread. */
    OrderedDelivery newDelivery() {
        return new OrderedDelivery(receiveThreads);
    }

    public InetSocketAddress address() {
        return address;
    }

    /** The largest sender ring this receiver mirrors: its own {@code whale.rdma.ring.bytes}. */
    int maxRingBytes() {
        return maxRingBytes;
    }

    /**
     * Handshakes refused: the peer did not prove the topology secret, announced a ring larger than this side's, or did
     * not finish its handshake within {@code whale.rdma.handshake.timeout.ms}.
     */
    public long refusedHandshakes() {
        return refused.get();
    }

    void countRefused() {
        refused.incrementAndGet();
    }

    /**
     * Sends a small notice to the sender of every admitted channel (receiver to sender, two-sided). Thread-safe;
     * notices to one sender arrive in the order they were broadcast. Once the engine is closed there is no channel
     * left to tell and the notice goes nowhere, as with Netty's server: a worker's backpressure timer may still
     * broadcast while its transport shuts down, and a throw would kill that timer (and with it the worker).
     */
    public void broadcast(ByteBuffer notice) {
        ByteBuffer message = Control.notice(notice);
        onProgressThread(() -> {
            for (InboundSession session : admitted) {
                session.sendNotice(message.duplicate());
            }
        });
    }

    /** {@link #broadcast} to the sender of one channel only; once that channel is closed the notice goes nowhere. */
    void notice(InboundSession session, ByteBuffer notice) {
        ByteBuffer message = Control.notice(notice);
        onProgressThread(() -> {
            if (admitted.contains(session)) {
                session.sendNotice(message);
            }
        });
    }

    private void onProgressThread(Runnable send) {
        try {
            engine.execute(send);
        } catch (RdmaException engineClosed) {
            LOG.debug("notice not sent from {}: {}", address, engineClosed.getMessage());
        }
    }

    void admitted(InboundSession session) {
        if (closing) {
            session.close("the receiver is closing");
            return;
        }
        admitted.add(session);
        ByteBuffer greeting = handler.greeting();
        if (greeting != null) {
            session.sendNotice(Control.notice(greeting));
        }
    }

    void closed(InboundSession session) {
        admitted.remove(session);
    }

    long lastDelivered(long channelId) {
        return lastDelivered.getOrDefault(channelId, 0L);
    }

    void recordDelivered(long channelId, long seq) {
        lastDelivered.put(channelId, seq);
    }

    /** Receive thread. */
    void deliver(InboundBatch batch) {
        try {
            handler.onBatch(batch);
        } catch (RuntimeException e) {
            LOG.error("inbound handler failed on work request {} from {}", batch.seq(), batch.peer(), e);
        }
    }

    /** Receive thread. */
    void channelLost(String peer, String reason) {
        handler.onChannelLost(peer, reason);
    }

    /**
     * Stops accepting and closes the open channels (their senders keep what was not delivered and send it to the
     * next receiver on this address); work requests already queued for the handler are still delivered.
     */
    @Override
    public void close() {
        listener.close();
        CompletableFuture<Void> sessionsClosed = new CompletableFuture<>();
        Runnable closeSessions = () -> {
            closing = true;
            for (InboundSession session : List.copyOf(admitted)) {
                session.close("the receiver was closed");
            }
            sessionsClosed.complete(null);
        };
        try {
            if (engine.inProgressThread()) {
                closeSessions.run();
            } else {
                engine.execute(closeSessions);
            }
            sessionsClosed.get(10, TimeUnit.SECONDS);
        } catch (RuntimeException engineClosed) {
            LOG.debug("engine already closed; its channels went with it", engineClosed);
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("closing the channels of {} did not finish: {}", address, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            receiveThreads.shutdown();
        }
    }
}
