package io.whale.rdma.channel;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.rdma.RdmaConfig;
import io.whale.rdma.spi.Completion;
import io.whale.rdma.spi.EndpointHandler;
import io.whale.rdma.spi.RdmaEndpoint;
import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RdmaProviders;
import io.whale.rdma.spi.RegionAccess;
import io.whale.rdma.spi.RegisteredRegion;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A receiver's side of the handshake against a peer that speaks the protocol by hand (issue 34): a HELLO played back
 * from a genuine sender, a ring larger than the receiver's, and a connection that never finishes its handshake are each
 * refused, counted and closed, and nothing is delivered.
 */
class InboundHandshakeTest {
    private static final String SECRET = "topology-1";
    private static final int RING_BYTES = 65_536;
    private static final long HANDSHAKE_TIMEOUT_MS = 500;
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final ConcurrentLinkedQueue<InboundBatch> delivered = new ConcurrentLinkedQueue<>();
    private Handshake handshake;
    private ChannelServer server;
    private RdmaEngine peerEngine;
    private final Peer peer = new Peer();

    /** A receiver whose peers have {@code timeoutMillis} to finish their handshake, and the hand-speaking peer's engine. */
    private void start(long timeoutMillis) {
        RdmaConfig config = InProcessChannelTest.config(SECRET, RING_BYTES, 4096, 1, Map.of(RdmaConfig.HANDSHAKE_TIMEOUT_MS, timeoutMillis));
        handshake = new Handshake(config.secret());
        RdmaTransport receiverSide = RdmaTransport.start(config);
        toClose.add(receiverSide);
        server = receiverSide.bind(new InetSocketAddress("127.0.0.1", 0), delivered::add);
        toClose.add(0, server);
        peerEngine = RdmaProviders.start(config);
        toClose.add(peerEngine);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable resource : toClose) {
            resource.close();
        }
    }

    @Test
    void shouldRefuseTheRingOfAPlayedBackHello() {
        start(60_000);
        byte[] nonce = Handshake.newNonce();
        RdmaEndpoint endpoint = peer.helloAndWelcome(42L, nonce);

        RegisteredRegion ring = peerEngine.allocate(4096, RegionAccess.PEER_READS);
        toClose.add(0, ring);
        byte[] fields = Control.ringFields(ring.address(), ring.length(), 1, ring.remoteKey());
        endpoint.send(Control.ring(fields, new byte[Handshake.MAC_BYTES]), Completion.onFailure(r -> { }));

        peer.awaitRefused("ring announcement not proven by the topology secret");
        assertEquals(1, server.refusedHandshakes());
        assertTrue(delivered.isEmpty());
    }

    @Test
    void shouldRefuseARingLargerThanItsOwnBeforeAllocatingIt() {
        start(60_000);
        byte[] nonce = Handshake.newNonce();
        RdmaEndpoint endpoint = peer.helloAndWelcome(43L, nonce);

        byte[] fields = Control.ringFields(0x1000, Integer.MAX_VALUE, 1, new byte[8]);
        byte[] mac = handshake.ringMac(43L, nonce, peer.receiverNonce(), fields);
        endpoint.send(Control.ring(fields, mac), Completion.onFailure(r -> { }));

        peer.awaitRefused("ring of " + Integer.MAX_VALUE + " bytes, this receiver takes 1 to " + RING_BYTES + " (whale.rdma.ring.bytes)");
        assertEquals(1, server.refusedHandshakes());
    }

    @Test
    void shouldLeaveClosingToTheRefusedPeerSoThatItsRejectIsReadAndCloseAtTheDeadlineIfItDoesNot() {
        start(3_000);
        RdmaEndpoint endpoint = peer.connect();
        endpoint.send(Control.hello(44L, Handshake.newNonce(), new byte[Handshake.MAC_BYTES]), Completion.onFailure(r -> { }));

        peer.awaitRefused("topology secret mismatch");
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> peer.lost == null);
        await().atMost(Duration.ofSeconds(10)).until(() -> peer.lost != null);
        assertEquals(1, server.refusedHandshakes(), "the deadline closes a refused connection without counting it again");
    }

    @Test
    void shouldCloseAConnectionThatDoesNotHandshakeInTimeWithoutRejectingIt() {
        start(HANDSHAKE_TIMEOUT_MS);
        peer.connect();
        await().atMost(Duration.ofSeconds(10)).until(() -> peer.lost != null);
        assertEquals(1, server.refusedHandshakes());
        assertTrue(peer.messages.stream().noneMatch(m -> m.get(0) == Control.REJECT), "closed, not rejected: a slow sender reconnects");
    }

    /** The hand-speaking peer: what the receiver sent it, on its engine's progress thread. */
    private final class Peer implements EndpointHandler {
        private final List<ByteBuffer> messages = new CopyOnWriteArrayList<>();
        private volatile String lost;

        RdmaEndpoint connect() {
            RdmaEndpoint endpoint = peerEngine.connect(server.address(), this, Duration.ofSeconds(10));
            toClose.add(0, endpoint::close);
            return endpoint;
        }

        /** Connects and sends a HELLO, as recorded from a genuine sender of {@code channelId}; waits for the WELCOME. */
        RdmaEndpoint helloAndWelcome(long channelId, byte[] nonce) {
            RdmaEndpoint endpoint = connect();
            endpoint.send(Control.hello(channelId, nonce, handshake.helloMac(channelId, nonce)), Completion.onFailure(r -> { }));
            await().atMost(Duration.ofSeconds(10)).until(() -> received(Control.WELCOME));
            return endpoint;
        }

        @Override
        public void onControl(RdmaEndpoint endpoint, ByteBuffer message) {
            ByteBuffer copy = ByteBuffer.allocate(message.remaining()).put(message).flip();
            messages.add(copy);
        }

        @Override
        public void onError(RdmaEndpoint endpoint, String reason) {
            lost = reason;
        }

        boolean received(byte type) {
            return messages.stream().anyMatch(m -> m.get(0) == type);
        }

        /**
         * Waits until the receiver refused this peer with a REJECT naming {@code reason}; the connection stays open until
         * this side closes it (the receiver does not close first, so its close cannot overtake the REJECT).
         */
        void awaitRefused(String reason) {
            await().atMost(Duration.ofSeconds(20)).until(() -> rejectedWith(reason) || lost != null);
            assertTrue(rejectedWith(reason), "refused with a REJECT naming " + reason + "; lost: " + lost);
        }

        boolean rejectedWith(String reason) {
            return messages.stream().anyMatch(m -> m.get(0) == Control.REJECT
                && Control.text(m.duplicate().position(1)).equals(reason));
        }

        /** The nonce of the receiver's WELCOME: after the type and the MAC. */
        byte[] receiverNonce() {
            ByteBuffer welcome = messages.stream().filter(m -> m.get(0) == Control.WELCOME).findFirst().orElseThrow().duplicate();
            welcome.position(1 + Handshake.MAC_BYTES);
            return Control.bytes(welcome, Handshake.NONCE_BYTES);
        }
    }
}
