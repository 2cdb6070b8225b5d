package io.whale.rdma.storm;

import io.whale.rdma.RdmaConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import org.apache.storm.Config;

/**
 * The secret RDMA peers prove in the channel handshake, so a worker admits only workers of its own topology.
 * {@code StormSubmitter} gives every topology a random {@code storm.zookeeper.topology.auth.payload} that only
 * its workers (and Nimbus) see; the secret is a digest of it and the topology id. An explicit
 * {@code whale.rdma.secret} wins. Without a payload (LocalCluster) peers are told apart by topology id only.
 */
final class TopologySecret {
    private TopologySecret() {
    }

    static String derive(Map<String, Object> topoConf, String stormId) {
        Object explicit = topoConf.get(RdmaConfig.SECRET);
        if (explicit != null) {
            return explicit.toString();
        }
        Object payload = topoConf.get(Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_PAYLOAD);
        String material = "whale-rdma\n" + stormId + "\n" + (payload == null ? "" : payload);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(material.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    static boolean hasPayload(Map<String, Object> topoConf) {
        return topoConf.get(Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_PAYLOAD) != null;
    }
}
