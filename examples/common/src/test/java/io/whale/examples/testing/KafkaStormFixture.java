package io.whale.examples.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.whale.examples.kafka.KraftBroker;
import io.whale.examples.kafka.LoopbackPorts;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;

/**
 * What the examples' end-to-end tests run on: a KRaft broker, a ZooKeeper and a LocalCluster, all on
 * 127.0.0.1, started together and stopped in reverse order.
 */
public final class KafkaStormFixture implements AutoCloseable {
    private final KraftBroker broker;
    private final LoopbackZookeeper zookeeper;
    private final LocalCluster cluster;

    private KafkaStormFixture(KraftBroker broker, LoopbackZookeeper zookeeper, LocalCluster cluster) {
        this.broker = broker;
        this.zookeeper = zookeeper;
        this.cluster = cluster;
    }

    public static KafkaStormFixture start(Path dir) throws Exception {
        KraftBroker broker = KraftBroker.start(dir.resolve("kafka"), "127.0.0.1", LoopbackPorts.free(), LoopbackPorts.free());
        LoopbackZookeeper zookeeper = null;
        try {
            zookeeper = LoopbackZookeeper.start(Files.createDirectories(dir.resolve("zookeeper")));
            LocalCluster cluster = new LocalCluster.Builder()
                    .withDaemonConf(Config.STORM_ZOOKEEPER_SERVERS, List.of("127.0.0.1"))
                    .withDaemonConf(Config.STORM_ZOOKEEPER_PORT, zookeeper.port())
                    .build();
            return new KafkaStormFixture(broker, zookeeper, cluster);
        } catch (Exception e) {
            if (zookeeper != null) {
                zookeeper.close();
            }
            broker.close();
            throw e;
        }
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    public LocalCluster cluster() {
        return cluster;
    }

    @Override
    public void close() throws Exception {
        try {
            cluster.close();
        } finally {
            try {
                zookeeper.close();
            } finally {
                broker.close();
            }
        }
    }
}
