package io.whale.woc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.codahale.metrics.Gauge;
import io.whale.flow.FrameWindow;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.Constants;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.junit.jupiter.api.Test;

/** WOC's worker metrics, read back from the registry as a reporter reads them. */
class WocMetricsTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldGaugeTheWindowToEachDestinationWorkerItsFirstFrameWentTo() {
        StormMetricRegistry registry = new StormMetricRegistry();
        AtomicLong now = new AtomicLong();
        FrameWindow window = new FrameWindow(8192, 50, 0, now::get);
        WocMetrics metrics = new WocMetrics(registry, n -> window);
        window.onConnected();
        NodeInfo node = new NodeInfo("b", Set.of(6701L));

        window.tryAcquire(100);
        metrics.frameSent(node, 100, 4000);
        Map<String, Gauge> gauges = registry.getTaskGauges((int) Constants.SYSTEM_TASK_ID);
        assertEquals(8192L, gauges.get("woc-window-tuples-to-b-6701").getValue(), "configured until a round trip is timed");
        assertEquals(-1L, gauges.get("woc-window-rtt-us-to-b-6701").getValue());
        assertEquals(100L, gauges.get("woc-window-in-flight-to-b-6701").getValue(), "sent, not yet credited");

        now.set(10 * MS);
        window.credit(100);
        assertEquals(600L, gauges.get("woc-window-tuples-to-b-6701").getValue(), "10 tuples/ms x (10 ms + 50 ms)");
        assertEquals(10_000L, gauges.get("woc-window-rtt-us-to-b-6701").getValue());
        assertEquals(0L, gauges.get("woc-window-in-flight-to-b-6701").getValue());
    }
}
