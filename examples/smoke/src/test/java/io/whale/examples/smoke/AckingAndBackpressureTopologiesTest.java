package io.whale.examples.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.junit.jupiter.api.Test;

/** The acking and backpressure topologies' shape and settings, as the cluster tests rely on them. */
class AckingAndBackpressureTopologiesTest {

    @Test
    void ackingTopologyAllGroupsReliableIdsWithASmallTimeout() {
        TopologyOptions o = TopologyOptions.parse(new String[] {"--parallelism", "5", "--timeout-secs", "12", "--report-dir", "/r"},
            AckingTopology.defaults());
        StormTopology topology = AckingTopology.build(o);
        assertTrue(topology.get_bolts().get(AckingTopology.BOLT).get_common().get_inputs().values().iterator().next().is_set_all());
        assertEquals(5, topology.get_bolts().get(AckingTopology.BOLT).get_common().get_parallelism_hint());
        Config conf = AckingTopology.config(o);
        assertEquals(12, conf.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS));
        assertEquals(300, conf.get(Config.TOPOLOGY_MAX_SPOUT_PENDING));
        assertEquals(2, conf.get(Config.TOPOLOGY_WORKERS));
    }

    @Test
    void backpressureTopologyAllGroupsWithoutAckersAndTheConfiguredQueues() {
        TopologyOptions o = TopologyOptions.parse(new String[] {"--receive-buffer", "512", "--transfer-buffer", "256", "--report-dir", "/r"},
            BackpressureTopology.defaults());
        StormTopology topology = BackpressureTopology.build(o);
        assertTrue(topology.get_bolts().get(BackpressureTopology.BOLT).get_common().get_inputs().values().iterator().next().is_set_all());
        Config conf = BackpressureTopology.config(o);
        assertEquals(0, conf.get(Config.TOPOLOGY_ACKER_EXECUTORS));
        assertEquals(512, conf.get(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE));
        assertEquals(256, conf.get(Config.TOPOLOGY_TRANSFER_BUFFER_SIZE));
    }
}
