package io.whale.examples.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;

import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A standalone ZooKeeper on 127.0.0.1 and a free port, for LocalCluster tests: given
 * {@code storm.zookeeper.servers}, LocalCluster uses it instead of starting its own in-process
 * ZooKeeper, which would bind every interface on a port searched upwards from 2000.
 */
public final class LoopbackZookeeper implements AutoCloseable {
    private final ServerCnxnFactory factory;

    private LoopbackZookeeper(ServerCnxnFactory factory) {
        this.factory = factory;
    }

    public static LoopbackZookeeper start(Path dataDir) throws IOException, InterruptedException {
        ZooKeeperServer server = new ZooKeeperServer(dataDir.toFile(), dataDir.toFile(), 2000);
        ServerCnxnFactory factory = ServerCnxnFactory.createFactory(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
        factory.startup(server);
        return new LoopbackZookeeper(factory);
    }

    public int port() {
        return factory.getLocalPort();
    }

    @Override
    public void close() {
        factory.shutdown();
    }
}
