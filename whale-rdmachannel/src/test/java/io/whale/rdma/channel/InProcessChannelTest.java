package io.whale.rdma.channel;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.rdma.RdmaConfig;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Two UCX engines (two contexts and workers) in one JVM, talking over the default transports on 127.0.0.1. */
@Timeout(60)
class InProcessChannelTest {
    private static final InetSocketAddress ANY_LOCAL_PORT = new InetSocketAddress("127.0.0.1", 0);
    private final List<AutoCloseable> toClose = new CopyOnWriteArrayList<>();

    static RdmaConfig config(String secret, int ringBytes, int mmsBytes, double wtlMillis) {
        Map<String, Object> conf = new HashMap<>();
        conf.put(RdmaConfig.SECRET, secret);
        conf.put(RdmaConfig.RING_BYTES, ringBytes);
        conf.put(RdmaConfig.MMS_BYTES, mmsBytes);
        conf.put(RdmaConfig.WTL_MS, wtlMillis);
        conf.put(RdmaConfig.RECONNECT_MIN_MS, 50);
        conf.put(RdmaConfig.RECONNECT_MAX_MS, 200);
        return RdmaConfig.fromMap(conf);
    }

    private <T extends AutoCloseable> T closeLater(T resource) {
        toClose.add(0, resource);
        return resource;
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable resource : toClose) {
            resource.close();
        }
    }

    /** A receiver that checks each message's index ({@code indexOf}) against the next one expected. */
    private static InboundHandler inOrder(java.util.function.ToLongFunction<ByteBuffer> indexOf, AtomicLong next,
                                          ConcurrentLinkedQueue<String> errors) {
        return batch -> {
            batch.forEachMessage(message -> {
                long index = indexOf.applyAsLong(message);
                if (index != next.getAndIncrement()) {
                    errors.add("got " + index + " expected " + (next.get() - 1));
                }
            });
            batch.release();
        };
    }

    @Test
    void shouldDeliverEveryByteInOrderAcrossManyRingWrapArounds() throws Exception {
        RdmaConfig config = config("topology-1", 64 * 1024, 8 * 1024, 1);
        RdmaTransport receiverSide = closeLater(RdmaTransport.start(config));
        RdmaTransport senderSide = closeLater(RdmaTransport.start(config));
        AtomicLong next = new AtomicLong();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        ChannelServer server = closeLater(receiverSide.bind(ANY_LOCAL_PORT,
                inOrder(message -> TestMessages.check(7, message, 3000), next, errors)));
        ChannelSender sender = closeLater(senderSide.connect(server.address(), ChannelListener.NONE));
        int count = 20_000;
        for (int i = 0; i < count; i++) {
            sender.send(TestMessages.message(7, i, 3000), Duration.ofSeconds(10));
        }
        assertTrue(sender.awaitDrained(Duration.ofSeconds(20)));
        assertEquals(count, next.get());
        assertTrue(errors.isEmpty(), errors::toString);
        assertTrue(sender.batchesSent() > 10L * (64 * 1024) / (8 * 1024),
                "enough work requests to wrap the ring 10 times");
    }

    @Test
    void shouldStartANewWorkRequestWhenTheOpenOneEndsExactlyAtTheEndOfTheRing() throws Exception {
        // 4 KiB frames tile the 64 KiB ring exactly and a 48 KiB MMS leaves a work request open when the head
        // reaches the end of the region: the next message must not extend it across the end (one READ fetches a
        // work request, so the receiver would refuse it).
        RdmaConfig config = config("topology-1", 64 * 1024, 48 * 1024, 1000);
        RdmaTransport receiverSide = closeLater(RdmaTransport.start(config));
        RdmaTransport senderSide = closeLater(RdmaTransport.start(config));
        AtomicLong next = new AtomicLong();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        ChannelServer server = closeLater(receiverSide.bind(ANY_LOCAL_PORT,
                inOrder(message -> message.getLong(message.position()), next, errors)));
        ChannelSender sender = closeLater(senderSide.connect(server.address(), ChannelListener.NONE));
        int frame = 4 * 1024;
        int count = 100;
        for (int i = 0; i < count; i++) {
            sender.send(ByteBuffer.allocate(frame - ChannelSender.FRAME_HEADER).putLong(0, i), Duration.ofSeconds(10));
        }
        assertTrue(sender.awaitDrained(Duration.ofSeconds(20)), "stuck: " + sender.lastError());
        assertEquals(count, next.get());
        assertTrue(errors.isEmpty(), errors::toString);
    }

    @Test
    void shouldSignalBackpressureAndNeverOverwriteWhenTheReceiverHoldsEveryBatch() throws Exception {
        RdmaConfig config = config("topology-1", 16 * 1024, 1024, 1);
        RdmaTransport receiverSide = closeLater(RdmaTransport.start(config));
        RdmaTransport senderSide = closeLater(RdmaTransport.start(config));
        ConcurrentLinkedQueue<InboundBatch> held = new ConcurrentLinkedQueue<>();
        ChannelServer server = closeLater(receiverSide.bind(ANY_LOCAL_PORT, held::add));
        ChannelSender sender = closeLater(senderSide.connect(server.address(), ChannelListener.NONE));
        assertTrue(sender.awaitConnected(Duration.ofSeconds(10)));
        int accepted = 0;
        while (sender.trySend(TestMessages.message(3, accepted, 500))) {
            accepted++;
        }
        assertTrue(accepted > 10, "some messages fit before the ring is full: " + accepted);
        assertThrows(BackpressureException.class,
                () -> sender.send(TestMessages.message(3, 999_999, 500), Duration.ofMillis(50)));
        sender.flush();
        int acceptedCount = accepted;
        await().atMost(Duration.ofSeconds(10)).until(() -> held.stream().mapToInt(InboundBatch::messageCount).sum()
                == acceptedCount);
        AtomicLong next = new AtomicLong();
        for (InboundBatch batch : held) {
            batch.forEachMessage(message -> assertEquals(next.getAndIncrement(), TestMessages.check(3, message, 500)));
            batch.release();
        }
        assertEquals(accepted, next.get());
        assertTrue(sender.awaitDrained(Duration.ofSeconds(10)));
        assertTrue(sender.trySend(TestMessages.message(3, accepted, 500)), "space is back after consumption");
    }

    @Test
    void shouldSendAPartialBatchWhenTheWaitTimeLimitExpires() throws Exception {
        RdmaConfig config = config("topology-1", 1024 * 1024, 256 * 1024, 5);
        RdmaTransport receiverSide = closeLater(RdmaTransport.start(config));
        RdmaTransport senderSide = closeLater(RdmaTransport.start(config));
        ConcurrentLinkedQueue<Integer> counts = new ConcurrentLinkedQueue<>();
        ChannelServer server = closeLater(receiverSide.bind(ANY_LOCAL_PORT, batch -> {
            counts.add(batch.messageCount());
            batch.release();
        }));
        ChannelSender sender = closeLater(senderSide.connect(server.address(), ChannelListener.NONE));
        assertTrue(sender.awaitConnected(Duration.ofSeconds(10)));
        for (int i = 0; i < 3; i++) {
            sender.send(TestMessages.message(1, i, 100), Duration.ofSeconds(1));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> !counts.isEmpty());
        assertEquals(List.of(3), List.copyOf(counts), "the three small messages went out together, without flush");
    }

    @Test
    void shouldRefuseAPeerWithAnotherTopologySecret() throws Exception {
        RdmaTransport receiverSide = closeLater(RdmaTransport.start(config("topology-1", 65536, 4096, 1)));
        RdmaTransport intruderSide = closeLater(RdmaTransport.start(config("topology-2", 65536, 4096, 1)));
        ConcurrentLinkedQueue<InboundBatch> received = new ConcurrentLinkedQueue<>();
        ChannelServer server = closeLater(receiverSide.bind(ANY_LOCAL_PORT, received::add));
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        ChannelSender intruder = closeLater(intruderSide.connect(server.address(), new ChannelListener() {
            @Override
            public void onFailed(String peer, String reason) {
                failures.add(reason);
            }
        }));
        intruder.trySend(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        await().atMost(Duration.ofSeconds(10)).until(() -> !failures.isEmpty());
        assertTrue(failures.peek().contains("topology secret mismatch"), failures::toString);
        assertEquals(ChannelSender.State.FAILED, intruder.state());
        assertThrows(ChannelClosedException.class, () -> intruder.trySend(ByteBuffer.wrap(new byte[] {4})));
        assertEquals(1, server.refusedHandshakes());
        assertTrue(received.isEmpty());
    }

    @Test
    void shouldKeepMessagesWhileTheReceiverIsDownAndDeliverThemOnceItListens() throws Exception {
        RdmaConfig config = config("topology-1", 256 * 1024, 4096, 1);
        RdmaTransport senderSide = closeLater(RdmaTransport.start(config));
        ConcurrentLinkedQueue<String> disconnects = new ConcurrentLinkedQueue<>();
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getByName("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        ChannelSender sender = closeLater(senderSide.connect(address, new ChannelListener() {
            @Override
            public void onDisconnected(String peer, String reason) {
                disconnects.add(reason);
            }
        }));
        for (int i = 0; i < 100; i++) {
            sender.send(TestMessages.message(5, i, 1000), Duration.ofSeconds(1));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> !disconnects.isEmpty());
        assertTrue(disconnects.peek().contains("connect to " + address + " failed"), disconnects::toString);
        assertFalse(sender.state() == ChannelSender.State.CONNECTED);

        RdmaTransport receiverSide = closeLater(RdmaTransport.start(config));
        AtomicLong next = new AtomicLong();
        closeLater(receiverSide.bind(address, batch -> {
            batch.forEachMessage(message -> assertEquals(next.getAndIncrement(), TestMessages.check(5, message, 1000)));
            batch.release();
        }));
        assertTrue(sender.awaitDrained(Duration.ofSeconds(20)));
        assertEquals(100, next.get());
    }
}
