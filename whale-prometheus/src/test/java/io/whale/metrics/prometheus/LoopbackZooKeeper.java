package io.whale.metrics.prometheus;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.cluster.ClusterStateContext;
import org.apache.storm.cluster.ClusterUtils;
import org.apache.storm.cluster.DaemonType;
import org.apache.storm.cluster.IStateStorage;
import org.apache.storm.utils.Utils;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/** An in-process ZooKeeper server on 127.0.0.1 and a free port, shut down by {@link #close}. */
final class LoopbackZooKeeper implements AutoCloseable {
    private final ServerCnxnFactory factory;

    LoopbackZooKeeper(Path dataDir) throws IOException, InterruptedException {
        ZooKeeperServer server = new ZooKeeperServer(dataDir.toFile(), dataDir.toFile(), 2000);
        factory = ServerCnxnFactory.createFactory(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
        factory.startup(server);
    }

    int port() {
        return factory.getLocalPort();
    }

    /** Storm's defaults with this ZooKeeper and {@code root} as {@code storm.zookeeper.root}. */
    Map<String, Object> conf(String root) {
        return conf(port(), root);
    }

    /** Storm's defaults with the ZooKeeper at 127.0.0.1:{@code port} and {@code root}. */
    static Map<String, Object> conf(int port, String root) {
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.put(Config.STORM_ZOOKEEPER_SERVERS, List.of("127.0.0.1"));
        conf.put(Config.STORM_ZOOKEEPER_PORT, port);
        conf.put(Config.STORM_ZOOKEEPER_ROOT, root);
        return conf;
    }

    /** A session with this ZooKeeper, as a daemon of {@code type} opens one; the caller closes it. */
    static IStateStorage session(Map<String, Object> conf, DaemonType type) throws Exception {
        return ClusterUtils.mkStateStorage(conf, conf, new ClusterStateContext(type, conf));
    }

    @Override
    public void close() {
        factory.shutdown();
    }
}
