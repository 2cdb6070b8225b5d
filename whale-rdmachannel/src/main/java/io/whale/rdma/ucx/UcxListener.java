package io.whale.rdma.ucx;

import io.whale.rdma.RdmaException;
import io.whale.rdma.spi.EndpointHandler;
import io.whale.rdma.spi.RdmaEndpoint;
import io.whale.rdma.spi.RdmaListener;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Accepts bootstrap sockets on one thread per listener (not per connection) and hands them to the engine. */
final class UcxListener implements RdmaListener {
    private static final Logger LOG = LoggerFactory.getLogger(UcxListener.class);

    private final UcxEngine engine;
    private final ServerSocketChannel server;
    private final Function<RdmaEndpoint, EndpointHandler> handlerFactory;
    private final Thread acceptor;

    UcxListener(UcxEngine engine, InetSocketAddress bindAddress,
                Function<RdmaEndpoint, EndpointHandler> handlerFactory) {
        this.engine = engine;
        this.handlerFactory = handlerFactory;
        try {
            server = ServerSocketChannel.open();
            server.bind(bindAddress);
        } catch (IOException e) {
            throw new RdmaException("cannot listen on " + bindAddress + ": " + e.getMessage(), e);
        }
        acceptor = new Thread(this::acceptLoop, "whale-rdma-ucx-accept-" + address().getPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void acceptLoop() {
        while (server.isOpen()) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (IOException e) {
                if (server.isOpen()) {
                    LOG.warn("accept on {} failed", server, e);
                }
                continue;
            }
            try {
                channel.socket().setTcpNoDelay(true);
                engine.accept(channel, handlerFactory);
            } catch (IOException | RuntimeException e) {
                LOG.warn("UCX bootstrap with a peer failed: {}", e.getMessage());
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // dropping this peer
                }
            }
        }
    }

    @Override
    public InetSocketAddress address() {
        try {
            return (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            throw new RdmaException("listener is closed", e);
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
