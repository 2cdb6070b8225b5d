package io.whale.rdma.channel;

import io.whale.rdma.RdmaConfig;
import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RdmaProviders;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Entry point of the channel library: one provider engine (one progress thread) plus one connector thread for
 * connection attempts, reconnects and the servers' handshake deadlines, shared by every channel opened from it. A Storm {@code IContext} maps to
 * one transport, its client connections to {@link ChannelSender}s and its server to a {@link ChannelServer}.
 */
public final class RdmaTransport implements AutoCloseable {
    private final RdmaConfig config;
    private final RdmaEngine engine;
    private final ScheduledExecutorService connector;
    private final Handshake handshake;

    private RdmaTransport(RdmaConfig config, RdmaEngine engine) {
        this.config = config;
        this.engine = engine;
        this.handshake = new Handshake(config.secret());
        this.connector = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "whale-rdma-connector");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts the provider named by {@code whale.rdma.provider}. */
    public static RdmaTransport start(RdmaConfig config) {
        return new RdmaTransport(config, RdmaProviders.start(config));
    }

    /** Uses an engine the caller started (tests, or several transports sharing one device context). */
    public static RdmaTransport on(RdmaEngine engine, RdmaConfig config) {
        return new RdmaTransport(config, engine);
    }

    /** Opens a channel; it connects (and later reconnects) in the background. Sends may start at once. */
    public ChannelSender connect(InetSocketAddress remote, ChannelListener listener) {
        return new ChannelSender(engine, config, connector, remote, listener);
    }

    /** Accepts channels on {@code bindAddress} (port 0 picks a free port). */
    public ChannelServer bind(InetSocketAddress bindAddress, InboundHandler handler) {
        return new ChannelServer(engine, handshake, config, connector, bindAddress, handler);
    }

    public RdmaConfig config() {
        return config;
    }

    /** Closes the engine; close the senders first to drain them. */
    @Override
    public void close() {
        connector.shutdownNow();
        try {
            connector.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        engine.close();
    }
}
