package io.whale.examples.smoke;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The smoke topology on an in-process LocalCluster with the patched client. */
class SmokeTopologyTest {

    @Test
    void everyCountingTaskReceivesEveryTupleExactlyOnce(@TempDir Path reports) throws Exception {
        SmokeSettings settings = new SmokeSettings("smoke-test", 300, 3, 2, 0, reports.toString());
        try (LocalCluster cluster = new LocalCluster()) {
            cluster.submitTopology(settings.name(), SmokeTopology.config(settings), SmokeTopology.build(settings));

            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> SmokeReports.read(reports).allComplete(3));
        }
        SmokeReports result = SmokeReports.read(reports);
        assertEquals(3, result.tasks().size());
        for (SmokeReports.Task task : result.tasks()) {
            assertEquals(300, task.distinct());
            assertEquals(300, task.received(), "no replays in a healthy run: " + result.describe());
        }
    }

    @Test
    void boltsAreAllGroupedFromTheSpout() {
        SmokeSettings settings = new SmokeSettings("smoke-test", 10, 4, 2, 0, "/tmp/unused");
        var topology = SmokeTopology.build(settings);
        var grouping = topology.get_bolts().get(SmokeTopology.BOLT).get_common().get_inputs().values().iterator().next();
        assertTrue(grouping.is_set_all());
        assertEquals(4, topology.get_bolts().get(SmokeTopology.BOLT).get_common().get_parallelism_hint());
        assertEquals(2, SmokeTopology.config(settings).get(Config.TOPOLOGY_WORKERS));
    }
}
