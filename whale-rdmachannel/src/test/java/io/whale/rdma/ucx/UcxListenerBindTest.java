package io.whale.rdma.ucx;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.rdma.RdmaConfig;
import io.whale.rdma.RdmaException;
import io.whale.rdma.spi.EndpointHandler;
import io.whale.rdma.spi.RdmaEndpoint;
import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RdmaListener;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The listener's bind (issue 10: a worker restarted on its port failed with "Address already in use"): the port is
 * free when {@code close()} returns, our own client sockets never keep a listener off a port, a port in use is tried
 * again for {@code whale.rdma.bind.timeout.ms}, and a port that stays in use is named with its holder.
 */
@Timeout(60)
class UcxListenerBindTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final EndpointHandler IGNORE = new EndpointHandler() {
        @Override
        public void onControl(RdmaEndpoint endpoint, ByteBuffer message) {
        }

        @Override
        public void onError(RdmaEndpoint endpoint, String reason) {
        }
    };

    private final RdmaEngine engine = engine(0);

    private static RdmaEngine engine(long bindTimeoutMillis) {
        return new UcxProvider().start(RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "unused",
                RdmaConfig.BIND_TIMEOUT_MS, bindTimeoutMillis)));
    }

    @AfterEach
    void stop() {
        engine.close();
    }

    private RdmaListener listen(RdmaEngine on, int port) {
        return on.listen(new InetSocketAddress(LOOPBACK, port), endpoint -> IGNORE);
    }

    @Test
    void shouldFreeThePortWhenCloseReturnsSoItBindsAgainAtOnceTwentyTimes() {
        // one attempt only (timeout 0): a port still held after close() fails the bind at once
        RdmaListener listener = listen(engine, 0);
        int port = listener.address().getPort();
        for (int round = 0; round < 20; round++) {
            // its accept thread is blocked in accept(), which keeps the socket open until the thread has left it
            listener.close();
            listener = listen(engine, port);
            assertEquals(port, listener.address().getPort());
        }
        listener.close();
    }

    @Test
    void shouldBindAPortThatOneOfOurClientSocketsHasAsItsOwnEnd() throws IOException {
        try (ServerSocket elsewhere = new ServerSocket(0, 50, LOOPBACK); SocketChannel client = Bootstrap.open()) {
            // as if the kernel had given the client's end a worker's port from the ephemeral range
            client.bind(new InetSocketAddress(LOOPBACK, 0));
            int port = ((InetSocketAddress) client.getLocalAddress()).getPort();
            Bootstrap.connect(client, (InetSocketAddress) elsewhere.getLocalSocketAddress(), 5_000);
            listen(engine, port).close();
            client.close(); // our end goes to TIME_WAIT, which must not keep the listener off either
            listen(engine, port).close();
        }
    }

    @Test
    void shouldRefuseASelfConnectionAndLeaveThePortToTheListener() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, LOOPBACK)) {
            port = probe.getLocalPort();
        }
        InetSocketAddress nobodyYet = new InetSocketAddress(LOOPBACK, port);
        try (SocketChannel client = Bootstrap.open()) {
            client.bind(nobodyYet); // the kernel's pick when nothing listens on an ephemeral-range port
            ConnectException error = assertThrows(ConnectException.class,
                    () -> Bootstrap.connect(client, nobodyYet, 5_000));
            assertTrue(error.getMessage().contains("connected to itself"), error.getMessage());
        }
        listen(engine, port).close();
    }

    @Test
    void shouldTryTheBindAgainUntilThePortIsFree() throws Exception {
        ServerSocket holder = new ServerSocket(0, 1, LOOPBACK);
        int port = holder.getLocalPort();
        RdmaEngine patient = engine(30_000);
        AtomicReference<Object> result = new AtomicReference<>();
        Thread binding = new Thread(() -> {
            try {
                result.set(listen(patient, port));
            } catch (RuntimeException e) {
                result.set(e);
            }
        });
        try {
            binding.start();
            // it found the port in use and waits to try again
            await().atMost(Duration.ofSeconds(10)).until(() -> binding.getState() == Thread.State.TIMED_WAITING);
            holder.close();
            binding.join(10_000);
            assertTrue(result.get() instanceof RdmaListener, String.valueOf(result.get()));
            ((RdmaListener) result.get()).close();
        } finally {
            holder.close();
            patient.close();
        }
    }

    @Test
    void shouldNameWhatHoldsThePortWhenItStaysInUse() throws IOException {
        try (ServerSocket holder = new ServerSocket(0, 1, LOOPBACK)) {
            int port = holder.getLocalPort();
            RdmaEngine brief = engine(300);
            try {
                RdmaException error = assertThrows(RdmaException.class, () -> listen(brief, port));
                assertTrue(error.getMessage().contains("cannot listen on") && error.getMessage().contains(
                        "held by LISTEN 127.0.0.1:" + port + " (another listener"), error.getMessage());
            } finally {
                brief.close();
            }
        }
    }
}
