package io.whale.examples.topology;

import java.util.Map;

import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;

/** Submits an example topology to the cluster the Storm/Whale CLI points at, optionally killing it after a while. */
public final class TopologyLauncher {
    private TopologyLauncher() {
    }

    /** @return the process exit code */
    public static int submit(String name, Map<String, Object> conf, StormTopology topology, int durationSeconds) throws Exception {
        UploadProgress.submit(name, conf, topology);
        System.out.println("Submitted topology " + name);
        if (durationSeconds <= 0) {
            return 0;
        }
        Thread.sleep(durationSeconds * 1000L);
        try (NimbusClient nimbus = NimbusClient.getConfiguredClient(Utils.readStormConfig())) {
            KillOptions kill = new KillOptions();
            kill.set_wait_secs(0);
            nimbus.getClient().killTopologyWithOpts(name, kill);
        }
        System.out.println("Killed topology " + name + " after " + durationSeconds + " s");
        return 0;
    }
}
