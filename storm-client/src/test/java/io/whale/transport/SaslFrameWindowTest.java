package io.whale.transport;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.config.WhaleConfig;
import io.whale.flow.FrameWindow;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.Config;
import org.apache.storm.messaging.ConnectionWithStatus;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.netty.Client;
import org.apache.storm.messaging.netty.Context;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * Patch 0026: with Storm's SASL on, a worker's Netty client enforces its WOC frame window once the connection is
 * authenticated (the SASL handler does not pass channelActive on, so the window used to stay open for good).
 */
class SaslFrameWindowTest {
    private static final int WINDOW_TUPLES = 4;

    @Test
    void shouldEnforceTheFrameWindowOnceSaslHasAuthenticatedTheConnection() {
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.put(Config.STORM_MESSAGING_NETTY_AUTHENTICATION, true);
        conf.put(Config.TOPOLOGY_NAME, "sasl-window");
        conf.put(Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_PAYLOAD, "sasl-window:secret");
        conf.put(WhaleConfig.WOC_ENABLED, true);
        conf.put(WhaleConfig.WOC_WINDOW_TUPLES, WINDOW_TUPLES);
        conf.put(WhaleConfig.WOC_WINDOW_DELAY_MS, 0);
        Context context = new Context();
        context.prepare(conf);
        try {
            IConnection server = context.bind("sasl-window-1", 0, batch -> { }, null);
            IConnection client = context.connect("sasl-window-1", "127.0.0.1", server.getPort(), new AtomicBoolean[] {new AtomicBoolean()});
            await().atMost(Duration.ofSeconds(60)).until(() -> ((ConnectionWithStatus) client).status() == ConnectionWithStatus.Status.Ready);

            FrameWindow window = ((Client) client).frameWindow();
            assertTrue(window.tryAcquire(WINDOW_TUPLES), "the window's room");
            assertFalse(window.tryAcquire(1), "a frame beyond the window waits for credit");
        } finally {
            context.term();
        }
    }
}
