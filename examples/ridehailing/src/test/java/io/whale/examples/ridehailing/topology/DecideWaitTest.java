package io.whale.examples.ridehailing.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.apache.storm.Config;
import org.junit.jupiter.api.Test;

class DecideWaitTest {
    @Test
    void shouldDefaultTheDecisionWaitWhenTheConfHasNone() {
        assertEquals(RideHailingTopology.DEFAULT_DECIDE_WAIT_MS, RideHailingTopology.decideWaitMillis(Map.of()));
        assertEquals(250, RideHailingTopology.decideWaitMillis(Map.of(RideHailingTopology.DECIDE_WAIT_KEY, 250L)));
    }

    @Test
    void shouldNameTheKeyAndTheTimeoutWhenTheWaitIsNotBelowIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RideHailingTopology.decideWaitMillis(
            Map.of(RideHailingTopology.DECIDE_WAIT_KEY, 10_000L, Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 10)));

        assertTrue(e.getMessage().contains("ridehailing.decide.wait.ms must be from 1 ms to below topology.message.timeout.secs (10000 ms)"),
            e.getMessage());
    }

    @Test
    void shouldNameTheKeyWhenTheWaitIsNotANumber() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> RideHailingTopology.decideWaitMillis(Map.of(RideHailingTopology.DECIDE_WAIT_KEY, "soon")));

        assertTrue(e.getMessage().startsWith("ridehailing.decide.wait.ms must be a whole number"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> RideHailingTopology.decideWaitMillis(Map.of(RideHailingTopology.DECIDE_WAIT_KEY, 0L)));
    }
}
