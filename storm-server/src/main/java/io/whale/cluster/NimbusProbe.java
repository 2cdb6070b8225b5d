package io.whale.cluster;

import java.util.Map;
import java.util.Optional;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;

/** Asks the local cluster's Nimbus for its summary over Thrift; empty while Nimbus does not answer. */
public final class NimbusProbe {
    private static final int TIMEOUT_MS = 5_000;

    private final String host;
    private final int port;
    private final Map<String, Object> conf = Utils.readDefaultConfig();

    public NimbusProbe(String host, int port) {
        this.host = host;
        this.port = port;
    }

    public Optional<ClusterSummary> summary() {
        try (NimbusClient client = new NimbusClient(conf, host, port, TIMEOUT_MS)) {
            return Optional.of(client.getClient().getClusterInfo());
        } catch (Exception notUpYet) {
            return Optional.empty();
        }
    }
}
