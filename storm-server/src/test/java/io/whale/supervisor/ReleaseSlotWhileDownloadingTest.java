package io.whale.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.ExecutorInfo;
import org.apache.storm.generated.LocalAssignment;
import org.apache.storm.localizer.AsyncLocalizer;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topology killed, or a LocalCluster closed, while the supervisor still downloads the topology's blobs: the
 * slot releases an assignment whose stormconf.ser is not (or no longer) in the local dir. Upstream's localizer
 * counts that and returns; with Storm 2.8.3's NIO-reading commons-io it rethrew, and the slot halted the
 * supervisor (patch 0015).
 */
class ReleaseSlotWhileDownloadingTest {

    @TempDir
    Path localDir;

    @Test
    void shouldReleaseASlotWhoseTopologyFilesAreGoneAndCountIt() throws Exception {
        Map<String, Object> conf = Utils.readDefaultConfig();
        conf.put(Config.STORM_LOCAL_DIR, localDir.toString());
        StormMetricsRegistry metrics = new StormMetricsRegistry();
        LocalAssignment assignment = new LocalAssignment("killed-while-downloading-1-1", List.of(new ExecutorInfo(1, 1)));

        AsyncLocalizer localizer = new AsyncLocalizer(conf, metrics);
        try {
            localizer.releaseSlotFor(assignment, 6700);
        } finally {
            localizer.close();
        }

        assertEquals(1, metrics.registerMeter("supervisor:local-resource-file-not-found-when-releasing-slot").getCount());
    }
}
