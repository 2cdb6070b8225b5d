package io.whale.rdma.channel;

import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RdmaListener;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts channels on one address and delivers their work requests to one {@link InboundHandler}. Remembers, per
 * sender channel, the last work request it delivered, so a sender that reconnects does not deliver it twice.
 */
public final class ChannelServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChannelServer.class);
    private static final int REMEMBERED_CHANNELS = 4096;

    private final InboundHandler handler;
    private final RdmaEngine engine;
    private final RdmaListener listener;
    /** Sessions past the handshake; progress thread only. */
    private final Set<InboundSession> admitted = new HashSet<>();
    private final AtomicLong refused = new AtomicLong();
    /** Progress thread only. */
    private final Map<Long, Long> lastDelivered = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
            return size() > REMEMBERED_CHANNELS;
        }
    };

    ChannelServer(RdmaEngine engine, Handshake handshake, InetSocketAddress bindAddress, InboundHandler handler) {
        this.handler = handler;
        this.engine = engine;
        this.listener = engine.listen(bindAddress,
                endpoint -> new InboundSession(this, engine, handshake, endpoint));
    }

    public InetSocketAddress address() {
        return listener.address();
    }

    /** Handshakes refused because the peer did not know the topology secret. */
    public long refusedHandshakes() {
        return refused.get();
    }

    void countRefused() {
        refused.incrementAndGet();
    }

    /**
     * Sends a small notice to the sender of every admitted channel (receiver to sender, two-sided). Thread-safe;
     * notices to one sender arrive in the order they were broadcast.
     */
    public void broadcast(ByteBuffer notice) {
        ByteBuffer message = Control.notice(notice);
        engine.execute(() -> {
            for (InboundSession session : admitted) {
                session.sendNotice(message.duplicate());
            }
        });
    }

    void admitted(InboundSession session) {
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

    void deliver(InboundBatch batch) {
        try {
            handler.onBatch(batch);
        } catch (RuntimeException e) {
            LOG.error("inbound handler failed on work request {} from {}", batch.seq(), batch.peer(), e);
        }
    }

    void channelLost(String peer, String reason) {
        handler.onChannelLost(peer, reason);
    }

    /** Stops accepting; open channels stay until their senders close. */
    @Override
    public void close() {
        listener.close();
    }
}
