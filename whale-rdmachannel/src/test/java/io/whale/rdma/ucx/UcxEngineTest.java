package io.whale.rdma.ucx;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.rdma.RdmaConfig;
import io.whale.rdma.RdmaException;
import io.whale.rdma.spi.Completion;
import io.whale.rdma.spi.EndpointHandler;
import io.whale.rdma.spi.Poller;
import io.whale.rdma.spi.RdmaEndpoint;
import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RdmaListener;
import io.whale.rdma.spi.RegionAccess;
import io.whale.rdma.spi.RegisteredRegion;
import io.whale.rdma.spi.RemoteRegion;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openucx.jucx.ucp.UcpConstants;

/**
 * The UCX provider through the SPI alone: control messages, one-sided READ and WRITE, peer loss, the idle progress
 * thread's wake-ups. The engines here sleep up to {@value #LONG_WAIT_MILLIS} ms in UCX's wait, longer than any test
 * may take, so that only an event (traffic, a posted task, a poller's deadline, {@link RdmaEngine#wake}) lets them go on.
 */
@Timeout(60)
class UcxEngineTest {
    private static final RdmaConfig CONFIG = RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "unused"));
    private static final long LONG_WAIT_MILLIS = 600_000;
    private RdmaEngine serverEngine;
    private RdmaEngine clientEngine;
    private final BlockingQueue<String> serverEvents = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> clientEvents = new LinkedBlockingQueue<>();
    private final CompletableFuture<RdmaEndpoint> accepted = new CompletableFuture<>();

    private static EndpointHandler recordingInto(BlockingQueue<String> events) {
        return new EndpointHandler() {
            @Override
            public void onControl(RdmaEndpoint endpoint, ByteBuffer message) {
                byte[] bytes = new byte[message.remaining()];
                message.get(bytes);
                events.add("control " + new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
            }

            @Override
            public void onError(RdmaEndpoint endpoint, String reason) {
                events.add("error " + reason);
            }
        };
    }

    private static Completion into(CompletableFuture<String> result) {
        return new Completion() {
            @Override
            public void onSuccess() {
                result.complete("ok");
            }

            @Override
            public void onError(String reason) {
                result.complete("failed: " + reason);
            }
        };
    }

    @BeforeEach
    void start() {
        serverEngine = new UcxEngine(CONFIG, LONG_WAIT_MILLIS);
        clientEngine = new UcxEngine(CONFIG, LONG_WAIT_MILLIS);
    }

    @AfterEach
    void stop() {
        clientEngine.close();
        serverEngine.close();
    }

    private RdmaEndpoint connectPair() {
        RdmaListener listener = serverEngine.listen(new InetSocketAddress("127.0.0.1", 0), endpoint -> {
            accepted.complete(endpoint);
            return recordingInto(serverEvents);
        });
        return clientEngine.connect(listener.address(), recordingInto(clientEvents), Duration.ofSeconds(10));
    }

    @Test
    void shouldCarryControlMessagesBothWays() throws Exception {
        RdmaEndpoint client = connectPair();
        client.send(ByteBuffer.wrap("hello".getBytes()), Completion.IGNORE);
        assertEquals("control hello", serverEvents.poll(10, TimeUnit.SECONDS));
        accepted.get(10, TimeUnit.SECONDS).send(ByteBuffer.wrap("welcome".getBytes()), Completion.IGNORE);
        assertEquals("control welcome", clientEvents.poll(10, TimeUnit.SECONDS));
    }

    @Test
    void shouldReadRemoteMemoryOneSided() throws Exception {
        RdmaEndpoint client = connectPair();
        RegisteredRegion clientMemory = clientEngine.allocate(64 * 1024, RegionAccess.LOCAL);
        RegisteredRegion serverMemory = serverEngine.allocate(64 * 1024, RegionAccess.PEER_READS);
        byte[] payload = new byte[10_000];
        new java.util.Random(5).nextBytes(payload);
        serverMemory.buffer().put(30_000, payload);

        RemoteRegion remote = client.attach(serverMemory.address(), serverMemory.length(), serverMemory.remoteKey());
        CompletableFuture<String> read = new CompletableFuture<>();
        client.read(remote, 30_000, clientMemory, 100, payload.length, into(read));
        assertEquals("ok", read.get(10, TimeUnit.SECONDS));
        byte[] fetched = new byte[payload.length];
        clientMemory.buffer().get(100, fetched);
        assertArrayEquals(payload, fetched);

        assertThrows(IllegalArgumentException.class,
                () -> client.read(remote, 60_000, clientMemory, 0, 10_000, Completion.IGNORE));
    }

    @Test
    void shouldMapARingForRemoteReadsOnlyAndAMirrorForNoRemoteAccess() {
        long remote = UcpConstants.UCP_MEM_MAP_PROT_REMOTE_READ | UcpConstants.UCP_MEM_MAP_PROT_REMOTE_WRITE;
        assertEquals(UcpConstants.UCP_MEM_MAP_PROT_REMOTE_READ, UcxEngine.protection(RegionAccess.PEER_READS) & remote);
        assertEquals(0, UcxEngine.protection(RegionAccess.LOCAL) & remote);
        long local = UcpConstants.UCP_MEM_MAP_PROT_LOCAL_READ | UcpConstants.UCP_MEM_MAP_PROT_LOCAL_WRITE;
        assertEquals(local, UcxEngine.protection(RegionAccess.LOCAL) & local, "READs land in a mirror");
    }

    @Test
    void shouldReportThePeerGoneWhenItsEngineCloses() throws Exception {
        connectPair();
        accepted.get(10, TimeUnit.SECONDS);
        serverEngine.close();
        String event = clientEvents.poll(20, TimeUnit.SECONDS);
        assertTrue(event != null && event.startsWith("error "), String.valueOf(event));
    }

    /** Until the idle engine has begun a wait for UCX events since it had begun {@code before} of them. */
    private static void awaitWaiting(RdmaEngine engine, long before) {
        await().atMost(Duration.ofSeconds(10)).until(() -> ((UcxEngine) engine).waitsBegun() > before);
    }

    @Test
    void shouldRunATaskPostedWhileTheProgressThreadWaitsForEvents() throws Exception {
        awaitWaiting(serverEngine, 0);
        CountDownLatch ran = new CountDownLatch(1);
        serverEngine.execute(ran::countDown);
        assertTrue(ran.await(10, TimeUnit.SECONDS), "the posted task woke the waiting progress thread");
    }

    @Test
    void shouldRunAPollerAtTheDeadlineItGaveWhileTheThreadWaits() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        CountDownLatch due = new CountDownLatch(1);
        serverEngine.addPoller(now -> {
            if (now - deadline >= 0) {
                due.countDown();
                return Poller.NO_DEADLINE;
            }
            return deadline;
        });
        assertTrue(due.await(10, TimeUnit.SECONDS), "the wait ended at the poller's deadline");
        assertTrue(((UcxEngine) serverEngine).waitsBegun() > 0, "the thread waited for it rather than polled");
    }

    @Test
    void shouldRunAPollerAtOnceWhenWokenForADeadlineMovedEarlier() throws Exception {
        AtomicLong deadline = new AtomicLong(Poller.NO_DEADLINE);
        CountDownLatch due = new CountDownLatch(1);
        long before = ((UcxEngine) serverEngine).waitsBegun();
        serverEngine.addPoller(now -> {
            long at = deadline.get();
            if (at != Poller.NO_DEADLINE && now - at >= 0) {
                due.countDown();
            }
            return at;
        });
        awaitWaiting(serverEngine, before);
        deadline.set(System.nanoTime());
        serverEngine.wake();
        assertTrue(due.await(10, TimeUnit.SECONDS), "wake() ended the wait");
    }

    @Test
    void shouldPollAndNeverWaitWhenTheConfTurnsWaitingOff() throws Exception {
        RdmaConfig polling = RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "unused", RdmaConfig.PROGRESS_WAIT, false));
        UcxEngine engine = new UcxEngine(polling, LONG_WAIT_MILLIS);
        try {
            CountDownLatch turns = new CountDownLatch(200);
            engine.addPoller(now -> {
                turns.countDown();
                return Poller.NO_DEADLINE;
            });
            assertTrue(turns.await(10, TimeUnit.SECONDS), "an idle polling thread keeps turning");
            assertEquals(0, engine.waitsBegun());
        } finally {
            engine.close();
        }
    }

    @Test
    void shouldFailToConnectWithAClearMessageWhenNobodyListens() throws Exception {
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getByName("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        InetSocketAddress nobody = new InetSocketAddress("127.0.0.1", port);
        RdmaException error = assertThrows(RdmaException.class,
                () -> clientEngine.connect(nobody, recordingInto(clientEvents), Duration.ofSeconds(2)));
        assertTrue(error.getMessage().contains("cannot connect to " + nobody), error.getMessage());
    }

    @Test
    void shouldHandUcxSettingsFromTheConfToUcx() {
        RdmaConfig shm = RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "unused", "whale.rdma.ucx.TLS", "posix,self"));
        RdmaEngine sharedMemoryOnly = new UcxProvider().start(shm);
        sharedMemoryOnly.close();
        RdmaConfig noTransport = RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "unused", "whale.rdma.ucx.TLS", "no_such_tl"));
        RuntimeException error = assertThrows(RuntimeException.class, () -> new UcxProvider().start(noTransport).close());
        assertTrue(error.getMessage().startsWith("UCX engine failed to start"), error.getMessage());
    }
}
