package io.whale.transport;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.messaging.ConnectionWithStatus;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.netty.Context;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/** Patch 0020: a worker's Netty messaging context, with a server and a client that have carried a message, stops at once. */
class NettyContextShutdownTest {
    /** Netty's default quiet period, which each event loop group waited out before ending: the old term() took at least this. */
    private static final Duration NETTY_QUIET_PERIOD = Duration.ofSeconds(2);

    @Test
    void shouldTerminateTheMessagingContextWithoutWaitingOutNettysQuietPeriod() throws Exception {
        Context context = new Context();
        context.prepare(new HashMap<>(Utils.readDefaultConfig()));
        boolean terminated = false;
        try {
            CountDownLatch received = new CountDownLatch(1);
            IConnection server = context.bind("shutdown-test", 0, batch -> received.countDown(), null);
            IConnection client = context.connect("shutdown-test", "127.0.0.1", server.getPort(), new AtomicBoolean[] {new AtomicBoolean()});
            // a client drops what it is given before it is connected
            await().atMost(Duration.ofSeconds(60)).until(() -> ((ConnectionWithStatus) client).status() == ConnectionWithStatus.Status.Ready);
            client.send(List.of(new TaskMessage(1, new byte[] {42})).iterator());
            assertTrue(received.await(60, TimeUnit.SECONDS), "the server got the client's message: every event loop ran");
            client.close();

            long start = System.nanoTime();
            context.term();
            terminated = true;
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertTrue(took.compareTo(NETTY_QUIET_PERIOD) < 0, "term() took " + took.toMillis() + " ms: it waited out a quiet period");
        } finally {
            if (!terminated) {
                context.term();
            }
        }
    }
}
