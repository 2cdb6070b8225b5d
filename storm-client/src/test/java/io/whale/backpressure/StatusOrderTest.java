package io.whale.backpressure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.messaging.netty.BackPressureStatus;
import org.apache.storm.serialization.KryoValuesDeserializer;
import org.apache.storm.serialization.KryoValuesSerializer;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

class StatusOrderTest {
    @Test
    void shouldIgnoreAStatusTakenBeforeOneAlreadyApplied() {
        StatusOrder order = new StatusOrder();
        assertTrue(order.isNewest("w1", 15), "full");
        assertTrue(order.isNewest("w1", 17), "full again");
        assertFalse(order.isNewest("w1", 16), "the timer's 'drained', written late");
        assertFalse(order.isNewest("w1", 17), "a repeat");
        assertTrue(order.isNewest("w1", 18));
    }

    @Test
    void shouldStartAfreshForARestartedWorker() {
        StatusOrder order = new StatusOrder();
        assertTrue(order.isNewest("w1", 500));
        assertTrue(order.isNewest("w2", 1), "a new worker id counts from its own first status");
        assertFalse(order.isNewest("w2", 1));
        assertTrue(order.isNewest("w2", 2));
    }

    @Test
    void shouldReceiveTheIdTheSenderTookWithTheStatus() throws Exception {
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        BackPressureStatus sent = new BackPressureStatus("w1", new ArrayList<>(List.of(2)), new ArrayList<>());
        byte[] bytes = new KryoValuesSerializer(conf).serializeObject(sent);
        new BackPressureStatus(); // the receiving side's own counter moves on
        BackPressureStatus received = BackPressureStatus.read(bytes, new KryoValuesDeserializer(conf));
        assertEquals(sent.id, received.id);
        assertEquals("w1", received.workerId);
    }
}
