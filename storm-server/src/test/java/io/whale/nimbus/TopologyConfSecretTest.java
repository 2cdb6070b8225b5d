package io.whale.nimbus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import io.whale.config.WhaleConfig;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * What Nimbus answers a client that asks for a topology's conf (patch 0003 of storm-server's series). No supervisor:
 * Nimbus keeps the submitted conf whether or not the topology is scheduled, and a local supervisor still fetching a
 * killed topology's blobs while the cluster closes halts the JVM (Storm's LocalFsBlobStore.shutdown NPE, seen in CI).
 */
class TopologyConfSecretTest {

    @Test
    void shouldMaskTheRdmaSecretInTheConfNimbusAnswersWith() throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("words", new TestWordSpout(), 1);
        Config conf = new Config();
        conf.put(WhaleConfig.RDMA_SECRET, "open-sesame");
        conf.put(WhaleConfig.WOC_ENABLED, true);

        try (LocalCluster cluster = new LocalCluster.Builder().withSupervisors(0).build()) {
            cluster.submitTopology("secret", conf, builder.createTopology());
            String id = cluster.getTopologySummaryByName("secret").get_id();
            try {
                Map<String, Object> answered = Utils.parseJson(cluster.getTopologyConf(id));

                assertEquals("*****", answered.get(WhaleConfig.RDMA_SECRET));
                assertEquals(true, answered.get(WhaleConfig.WOC_ENABLED), "the other keys as submitted");
            } finally {
                KillOptions kill = new KillOptions();
                kill.set_wait_secs(0);
                cluster.killTopologyWithOpts("secret", kill);
            }
        }
    }
}
