package io.whale.rdma.ucx;

import io.whale.rdma.RdmaException;
import io.whale.rdma.spi.EndpointHandler;
import io.whale.rdma.spi.RdmaEndpoint;
import io.whale.rdma.spi.RdmaListener;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts bootstrap sockets on one thread per listener (not per connection) and hands them to the engine.
 *
 * <p>Binding is made as robust as Netty's server (issue 10: a worker restarted on its port failed to start with
 * "Address already in use"): the socket has {@code SO_REUSEADDR} (connections of an earlier listener on the port in
 * TIME_WAIT do not block it); a bind that finds the port in use is tried again with back-off for
 * {@code whale.rdma.bind.timeout.ms}, because the holder is often on its way out; and the final error names what
 * holds the port ({@link PortHolders}). {@link #close()} returns only when the port is free again: closing a
 * channel that another thread is blocked accepting on releases the port only once that thread has left
 * {@code accept}, so the acceptor is joined.
 */
final class UcxListener implements RdmaListener {
    private static final Logger LOG = LoggerFactory.getLogger(UcxListener.class);
    private static final long ACCEPTOR_EXIT_MILLIS = 10_000;

    private final UcxEngine engine;
    private final ServerSocketChannel server;
    private final Function<RdmaEndpoint, EndpointHandler> handlerFactory;
    private final Thread acceptor;
    /** The accepted socket whose bootstrap the acceptor is reading; closed with the listener. */
    private volatile SocketChannel bootstrapping;

    UcxListener(UcxEngine engine, InetSocketAddress bindAddress,
                Function<RdmaEndpoint, EndpointHandler> handlerFactory) {
        this.engine = engine;
        this.handlerFactory = handlerFactory;
        server = bind(bindAddress, engine.bindTimeoutMillis());
        acceptor = new Thread(this::acceptLoop, "whale-rdma-ucx-accept-" + address().getPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private static ServerSocketChannel bind(InetSocketAddress bindAddress, long timeoutMillis) {
        BindRetry retry = new BindRetry(System.currentTimeMillis(), timeoutMillis);
        int attempts = 0;
        while (true) {
            ServerSocketChannel channel = null;
            try {
                attempts++;
                channel = ServerSocketChannel.open();
                channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                channel.bind(bindAddress);
                if (attempts > 1) {
                    LOG.info("bound {} after {} attempts", bindAddress, attempts);
                }
                return channel;
            } catch (BindException e) {
                close(channel);
                long pause = retry.pauseAfterFailure(System.currentTimeMillis());
                if (pause < 0) {
                    throw new RdmaException("cannot listen on " + bindAddress + ": " + e.getMessage() + " after "
                            + attempts + " attempts in " + timeoutMillis + " ms; port " + bindAddress.getPort()
                            + ": " + PortHolders.describe(bindAddress.getPort()), e);
                }
                if (attempts == 1) {
                    LOG.warn("port {} is in use: {}; trying again for up to {} ms", bindAddress.getPort(),
                            PortHolders.describe(bindAddress.getPort()), timeoutMillis);
                }
                sleep(pause, bindAddress);
            } catch (IOException e) {
                close(channel);
                throw new RdmaException("cannot listen on " + bindAddress + ": " + e.getMessage(), e);
            }
        }
    }

    private static void sleep(long millis, InetSocketAddress bindAddress) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RdmaException("interrupted while waiting to bind " + bindAddress, e);
        }
    }

    private static void close(ServerSocketChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // it never listened
            }
        }
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
                bootstrapping = channel;
                if (!server.isOpen()) {
                    throw new IOException("the listener was closed");
                }
                channel.socket().setTcpNoDelay(true);
                engine.accept(channel, handlerFactory);
            } catch (IOException | RuntimeException e) {
                if (server.isOpen()) {
                    LOG.warn("UCX bootstrap with a peer failed: {}", e.getMessage());
                }
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // dropping this peer
                }
            } finally {
                bootstrapping = null;
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

    /** Stops accepting; returns when the port can be bound again (accepted endpoints stay open). */
    @Override
    public void close() {
        close(server);
        SocketChannel peer = bootstrapping;
        if (peer != null) {
            try {
                peer.close(); // ends a bootstrap in progress, so the acceptor ends at once
            } catch (IOException ignored) {
                // dropping this peer
            }
        }
        if (Thread.currentThread() != acceptor) {
            try {
                acceptor.join(ACCEPTOR_EXIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (acceptor.isAlive()) {
                LOG.warn("the accept thread of {} did not end within {} ms ; its port is released when it does", server, ACCEPTOR_EXIT_MILLIS);
            }
        }
    }
}
