package io.whale.rdma.storm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TopologySecretTest {
    private static final String PAYLOAD = "storm.zookeeper.topology.auth.payload";

    @Test
    void workersOfOneTopologyDeriveTheSameSecret() {
        Map<String, Object> conf = Map.of(PAYLOAD, "super:abc");
        assertEquals(TopologySecret.derive(conf, "topo-1-1"), TopologySecret.derive(Map.copyOf(conf), "topo-1-1"));
    }

    @Test
    void anotherTopologyOrAnotherPayloadGivesAnotherSecret() {
        String secret = TopologySecret.derive(Map.of(PAYLOAD, "super:abc"), "topo-1-1");
        assertNotEquals(secret, TopologySecret.derive(Map.of(PAYLOAD, "super:abd"), "topo-1-1"));
        assertNotEquals(secret, TopologySecret.derive(Map.of(PAYLOAD, "super:abc"), "topo-2-1"));
        assertNotEquals(secret, TopologySecret.derive(Map.of(), "topo-1-1"));
    }

    @Test
    void anExplicitSecretWins() {
        assertEquals("s3cret", TopologySecret.derive(Map.of("whale.rdma.secret", "s3cret", PAYLOAD, "x"), "t"));
    }
}
