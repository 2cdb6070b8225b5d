package io.whale.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.junit.jupiter.api.Test;

class RelaySettingsTest {
    private static TreeShaper shaper(Object... keysAndValues) {
        Map<String, Object> conf = new HashMap<>(Map.of("whale.woc.enabled", true));
        for (int i = 0; i < keysAndValues.length; i += 2) {
            conf.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return RelaySettings.shaper(conf, () -> 0, new StormMetricRegistry());
    }

    @Test
    void shouldReshapeLiveOnlyANonblockingTreeWithAutoOutDegree() {
        assertTrue(shaper("whale.multicast.structure", "nonblocking").isLive());
        assertTrue(shaper("whale.multicast.structure", "nonblocking", "whale.multicast.max.outdegree", "auto").isLive());
        assertFalse(shaper("whale.multicast.structure", "nonblocking", "whale.multicast.max.outdegree", 2).isLive());
        assertFalse(shaper("whale.multicast.structure", "binomial").isLive());
    }

    @Test
    void shouldReshapeLiveOverRdmaWhichReturnsCreditToo() {
        assertTrue(shaper("whale.multicast.structure", "nonblocking", "whale.transport", "rdma").isLive());
    }

    @Test
    void shouldHaveNoTreeWhenSequentialOrWithoutWoc() {
        assertNull(shaper());
        assertNull(shaper("whale.multicast.structure", "sequential"));
        assertNull(RelaySettings.shaper(Map.of("whale.multicast.structure", "binomial"), () -> 0, null));
    }

    @Test
    void shouldReadTheControllerKeysWithTheModelsDefaults() {
        assertEquals(new ControllerSettings(1000, 500, 0.5, 0.5, 100, 0.8, 0), ControllerSettings.of(Map.of()));
        assertEquals(new ControllerSettings(64, 32, 0.5, 0.5, 100, 0.8, 0),
            ControllerSettings.of(Map.of("topology.transfer.buffer.size", 64)));
        assertEquals(200, ControllerSettings.of(Map.of("whale.multicast.queue.capacity", 200,
            "whale.multicast.waterline", 900)).waterline(), "the waterline never above Q");
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
            () -> ControllerSettings.of(Map.of("whale.multicast.forced.switch.ms", -1)));
        assertTrue(bad.getMessage().startsWith("whale.multicast.forced.switch.ms"), bad.getMessage());
    }
}
