package io.whale.rdma.channel;

import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RdmaListener;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
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
    private final RdmaListener listener;
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
