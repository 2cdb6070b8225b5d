package io.whale.rdma.storm;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.wire.RelayCredit;
import io.whale.flow.InboundCallback;
import io.whale.flow.RelayLink;
import io.whale.wire.BatchTupleCodec;
import io.whale.wire.BatchTupleMessage;
import io.whale.flow.CreditedConnection;
import io.whale.flow.FrameWindow;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.grouping.Load;
import org.apache.storm.messaging.ConnectionWithStatus;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.netty.BackPressureStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Two workers' messaging contexts in one JVM (two UCX engines) on 127.0.0.1, through Storm's IContext API. */
@Timeout(90)
class RdmaContextTest {
    private static final String TOPOLOGY = "topo-1-1700000000";
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private final List<RdmaContext> contexts = new ArrayList<>();

    private RdmaContext context(String authPayload, int ringBytes) {
        return context(authPayload, ringBytes, Map.of());
    }

    private RdmaContext context(String authPayload, int ringBytes, Map<String, Object> more) {
        Map<String, Object> conf = new HashMap<>(more);
        conf.put("storm.zookeeper.topology.auth.payload", authPayload);
        conf.put(RdmaContext.BIND_HOST, "127.0.0.1");
        conf.put("whale.rdma.ring.bytes", ringBytes);
        conf.put("whale.rdma.mms.bytes", Math.min(ringBytes, 256 * 1024));
        conf.put("whale.rdma.reconnect.min.ms", 50);
        conf.put("whale.rdma.reconnect.max.ms", 200);
        RdmaContext context = new RdmaContext();
        context.prepare(conf, null);
        contexts.add(context);
        return context;
    }

    private RdmaContext context(String authPayload) {
        return context(authPayload, 4 * 1024 * 1024);
    }

    @AfterEach
    void terminate() {
        contexts.forEach(RdmaContext::term);
    }

    private static AtomicBoolean[] flags(int tasks) {
        AtomicBoolean[] flags = new AtomicBoolean[tasks];
        Arrays.setAll(flags, i -> new AtomicBoolean());
        return flags;
    }

    private static void awaitReady(IConnection client) {
        await().atMost(DEADLINE).until(() -> ((ConnectionWithStatus) client).status() == ConnectionWithStatus.Status.Ready);
    }

    private static TaskMessage message(int i) {
        byte[] payload = new byte[1 + i % 700];
        Arrays.fill(payload, (byte) i);
        payload[0] = (byte) (i >>> 8);
        return new TaskMessage(i % 5 == 0 ? -7000 : i % 17, payload);
    }

    @Test
    void shouldDeliverTaskMessagesInSendOrderToTheWorkersCallback() {
        List<TaskMessage> received = new CopyOnWriteArrayList<>();
        IConnection server = context("payload-a").bind(TOPOLOGY, 0, received::addAll, null);
        IConnection client = context("payload-a").connect(TOPOLOGY, "127.0.0.1", server.getPort(), flags(17));
        awaitReady(client);

        int count = 5_000;
        List<TaskMessage> sent = new ArrayList<>();
        for (int batch = 0; batch < 10; batch++) {
            List<TaskMessage> messages = new ArrayList<>();
            for (int i = batch * count / 10; i < (batch + 1) * count / 10; i++) {
                messages.add(message(i));
            }
            sent.addAll(messages);
            client.send(messages.iterator());
        }

        await().atMost(DEADLINE).until(() -> received.size() >= count);
        assertEquals(count, received.size());
        for (int i = 0; i < count; i++) {
            assertEquals(sent.get(i).task(), received.get(i).task(), "task of message " + i);
            assertTrue(Arrays.equals(sent.get(i).message(), received.get(i).message()), "payload of message " + i);
        }
    }

    @Test
    void shouldBindTheSamePortAgainRightAfterEachCloseTwentyTimes() {
        // one bind attempt (no retry): the port must be free the moment close() or term() returns
        Map<String, Object> noRetry = Map.of("whale.rdma.bind.timeout.ms", 0);
        RdmaContext sending = context("payload-a", 1024 * 1024); // a topology's workers share their ring size
        RdmaContext receiving = context("payload-a", 1024 * 1024, noRetry);
        int port = 0;
        for (int round = 0; round < 20; round++) {
            if (round % 5 == 4) { // a worker restarting on its port: the old context ends, a new one binds
                receiving.term();
                receiving = context("payload-a", 1024 * 1024, noRetry);
            }
            List<TaskMessage> received = new CopyOnWriteArrayList<>();
            IConnection server = receiving.bind(TOPOLOGY, port, received::addAll, null);
            port = server.getPort();
            IConnection client = sending.connect(TOPOLOGY, "127.0.0.1", port, flags(17));
            client.send(List.of(message(round)).iterator());
            await().atMost(DEADLINE).until(() -> received.size() == 1);
            assertEquals(message(round).task(), received.get(0).task(), "round " + round);
            client.close();
            server.close();
        }
    }

    @Test
    void shouldKeepSendingWhileTheWorkersReceiveCallbackBlocks() throws InterruptedException {
        RdmaContext worker = context("payload-a");
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch unblock = new CountDownLatch(1);
        List<TaskMessage> slowReceived = new CopyOnWriteArrayList<>();
        IConnection slowServer = worker.bind(TOPOLOGY, 0, messages -> {
            blocked.countDown();
            try {
                unblock.await(); // Storm's callback stuck (deserialization, a full queue)
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            slowReceived.addAll(messages);
        }, null);
        try {
            IConnection toSlow = context("payload-a").connect(TOPOLOGY, "127.0.0.1", slowServer.getPort(), flags(17));
            toSlow.send(List.of(message(1)).iterator());
            assertTrue(blocked.await(30, TimeUnit.SECONDS), "the worker's callback got the first messages");

            // the same worker's context still sends to another worker while its receive callback blocks
            List<TaskMessage> received = new CopyOnWriteArrayList<>();
            IConnection otherServer = context("payload-a").bind(TOPOLOGY, 0, received::addAll, null);
            IConnection fromWorker = worker.connect(TOPOLOGY, "127.0.0.1", otherServer.getPort(), flags(17));
            List<TaskMessage> sent = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                sent.add(message(i));
            }
            fromWorker.send(sent.iterator());
            await().atMost(DEADLINE).until(() -> received.size() >= sent.size());
            assertEquals(sent.size(), received.size());
        } finally {
            unblock.countDown();
        }
        await().atMost(DEADLINE).until(() -> slowReceived.size() == 1);
    }

    @Test
    void shouldSendTheWorkersBackpressureStatusToNewAndConnectedSenders() {
        RdmaContext receiving = context("payload-a");
        IConnection server = receiving.bind(TOPOLOGY, 0, batch -> { },
            () -> new BackPressureStatus("receiver", List.of(2), List.of()));
        AtomicBoolean[] remoteBackPressure = flags(8);
        IConnection client = context("payload-a").connect(TOPOLOGY, "127.0.0.1", server.getPort(), remoteBackPressure);

        await().atMost(DEADLINE).untilTrue(remoteBackPressure[2]);
        server.sendBackPressureStatus(new BackPressureStatus("receiver", List.of(4), List.of(2)));
        await().atMost(DEADLINE).untilTrue(remoteBackPressure[4]);
        assertTrue(!remoteBackPressure[2].get(), "task 2 left backpressure");
        awaitReady(client);
    }

    /**
     * A worker's backpressure timer and receive path may still broadcast while the worker shuts its transport down;
     * as with Netty, the notice goes nowhere. (A throw there killed the timer thread, and Storm then halts the JVM.)
     */
    @Test
    void shouldIgnoreNoticesBroadcastAfterTheTransportIsClosed() {
        RdmaContext receiving = context("payload-a");
        IConnection server = receiving.bind(TOPOLOGY, 0, batch -> { }, null);
        receiving.term();

        assertDoesNotThrow(() -> server.sendBackPressureStatus(new BackPressureStatus("receiver", List.of(4), List.of())));
        assertDoesNotThrow(() -> server.sendLoadMetrics(Map.of(4, 0.5)));
    }

    @Test
    void shouldReportTheLoadOfTheReceivingWorkersTasks() {
        IConnection server = context("payload-a").bind(TOPOLOGY, 0, batch -> { }, null);
        IConnection client = context("payload-a").connect(TOPOLOGY, "127.0.0.1", server.getPort(), flags(8));
        awaitReady(client);

        server.sendLoadMetrics(Map.of(3, 0.75, 5, 0.125));
        await().atMost(DEADLINE).until(() -> client.getLoad(List.of(3, 5, 6)).size() == 2);
        Map<Integer, Load> load = client.getLoad(List.of(3, 5, 6));
        assertEquals(0.75, load.get(3).getBoltLoad());
        assertEquals(0.125, load.get(5).getBoltLoad());
    }

    @Test
    void shouldRefuseAWorkerThatDoesNotKnowTheTopologySecret() {
        List<TaskMessage> received = new CopyOnWriteArrayList<>();
        IConnection server = context("payload-a").bind(TOPOLOGY, 0, received::addAll, null);
        IConnection intruder = context("payload-b").connect(TOPOLOGY, "127.0.0.1", server.getPort(), flags(8));

        await().atMost(DEADLINE).until(() -> ((ConnectionWithStatus) intruder).status() == ConnectionWithStatus.Status.Closed);
        intruder.send(List.of(message(1)).iterator());
        assertTrue(received.isEmpty());
    }

    @Test
    void shouldKeepMessagesSentBeforeTheReceiverIsUpAndDeliverThemAfterwards() throws IOException {
        int port = freePort();
        RdmaContext sending = context("payload-a");
        IConnection client = sending.connect(TOPOLOGY, "127.0.0.1", port, flags(17));
        List<TaskMessage> sent = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            sent.add(message(i));
        }
        client.send(sent.iterator());

        List<TaskMessage> received = new CopyOnWriteArrayList<>();
        context("payload-a").bind(TOPOLOGY, port, received::addAll, null);
        await().atMost(DEADLINE).until(() -> received.size() >= sent.size());
        assertEquals(sent.size(), received.size());
        assertEquals(0, sending.metrics().messagesDropped.getCount());
    }

    @Test
    void shouldDropAndCountWhatDoesNotFitWhileTheReceiverIsDown() throws IOException {
        RdmaContext sending = context("payload-a", 64 * 1024);
        IConnection client = sending.connect(TOPOLOGY, "127.0.0.1", freePort(), flags(17));
        List<TaskMessage> tooMany = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            tooMany.add(new TaskMessage(1, new byte[1024]));
        }
        client.send(tooMany.iterator());

        long dropped = sending.metrics().messagesDropped.getCount();
        long sent = sending.metrics().messagesSent.getCount();
        assertTrue(dropped > 0, "a 64 KiB ring cannot hold 200 KiB");
        assertEquals(tooMany.size(), sent + dropped, "every message is either kept in the ring or counted as dropped");
    }

    private static final Map<String, Object> WOC = Map.of("whale.woc.enabled", true);

    /** A WOC frame for {@code destinations} tasks of the receiving worker, as the transfer drainer sends it. */
    private static TaskMessage frame(int... destinations) {
        return new TaskMessage(BatchTupleMessage.FRAME_TASK_ID,
            BatchTupleCodec.encode(1, "default", destinations, null, new byte[] {1, 2, 3}));
    }

    private static FrameWindow windowOf(IConnection client) {
        return ((CreditedConnection) client).frameWindow();
    }

    @Test
    void shouldCreditTheSendersFrameWindowOnceTheReceiverHasHandedItsFramesOver() throws InterruptedException {
        CountDownLatch handingOver = new CountDownLatch(1);
        CountDownLatch handedOver = new CountDownLatch(1);
        IConnection server = context("payload-a", 4 * 1024 * 1024, WOC).bind(TOPOLOGY, 0, batch -> {
            handingOver.countDown();
            try {
                handedOver.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, null);
        IConnection client = context("payload-a", 4 * 1024 * 1024, WOC).connect(TOPOLOGY, "127.0.0.1", server.getPort(), flags(8));
        awaitReady(client);
        FrameWindow window = windowOf(client);
        assertTrue(window.tryAcquire(3));

        client.send(List.of(frame(2, 3, 4)).iterator());
        assertTrue(handingOver.await(DEADLINE.toSeconds(), TimeUnit.SECONDS));
        assertEquals(3, window.inFlight(), "no credit while the worker is still taking the frame");
        handedOver.countDown();
        await().atMost(DEADLINE).until(() -> window.inFlight() == 0);
    }

    @Test
    void shouldCreditOnlyTheSenderWhoseChannelCarriedTheFrames() {
        IConnection server = context("payload-a", 4 * 1024 * 1024, WOC).bind(TOPOLOGY, 0, batch -> { }, null);
        IConnection carrier = context("payload-a", 4 * 1024 * 1024, WOC).connect(TOPOLOGY, "127.0.0.1", server.getPort(), flags(8));
        IConnection other = context("payload-a", 4 * 1024 * 1024, WOC).connect(TOPOLOGY, "127.0.0.1", server.getPort(), flags(8));
        awaitReady(carrier);
        awaitReady(other);
        assertTrue(windowOf(carrier).tryAcquire(2));
        assertTrue(windowOf(other).tryAcquire(2));

        carrier.send(List.of(frame(2, 3)).iterator());
        await().atMost(DEADLINE).until(() -> windowOf(carrier).inFlight() == 0);
        // notices to one sender keep their order: a credit sent to the other would be there before this load
        server.sendLoadMetrics(Map.of(3, 0.5));
        await().atMost(DEADLINE).until(() -> !other.getLoad(List.of(3)).isEmpty());
        assertEquals(2, windowOf(other).inFlight());
    }

    @Test
    void shouldReturnRelayCreditToTheSenderOfTheRelayFrames() {
        Map<String, Object> tree = Map.of("whale.woc.enabled", true, "whale.multicast.structure", "binomial");
        RelayCredit.Entry owed = new RelayCredit.Entry(42L, 5);
        IConnection server = context("payload-a", 4 * 1024 * 1024, tree).bind(TOPOLOGY, 0,
            (InboundCallback) (batch, inbound) -> inbound.accept(RelayCredit.message(List.of(owed))), null);
        IConnection client = context("payload-a", 4 * 1024 * 1024, tree).connect(TOPOLOGY, "127.0.0.1", server.getPort(), flags(8));
        List<RelayCredit.Entry> credited = new CopyOnWriteArrayList<>();
        ((CreditedConnection) client).relayLink(new RelayLink() {
            @Override
            public void credited(List<RelayCredit.Entry> entries) {
                credited.addAll(entries);
            }

            @Override
            public void disconnected() {
            }
        });
        awaitReady(client);

        client.send(List.of(message(1)).iterator());
        await().atMost(DEADLINE).until(() -> !credited.isEmpty());
        assertEquals(List.of(owed), credited);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
