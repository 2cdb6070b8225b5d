package io.whale.ui.source;

import io.whale.relay.MulticastBoard;
import io.whale.metrics.prometheus.PrometheusTargets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.storm.cluster.ClusterStateContext;
import org.apache.storm.cluster.ClusterUtils;
import org.apache.storm.cluster.DaemonType;
import org.apache.storm.cluster.IStateStorage;

/**
 * What Whale's workers publish in ZooKeeper for the UI: the relay trees of their broadcasts ({@link MulticastBoard})
 * and their Prometheus endpoints ({@link PrometheusTargets}). One session for the daemon's life, opened on first use.
 */
public final class ZooKeeperView implements AutoCloseable {
    private final Map<String, Object> conf;
    private IStateStorage storage;

    public ZooKeeperView(Map<String, Object> conf) {
        this.conf = conf;
    }

    public List<MulticastBoard> boards(String topologyId) {
        return read(zk -> MulticastBoard.read(zk, topologyId));
    }

    public List<PrometheusTargets.Target> targets() {
        return read(PrometheusTargets::read);
    }

    private synchronized <T> T read(Function<IStateStorage, T> question) {
        try {
            if (storage == null) {
                storage = ClusterUtils.mkStateStorage(conf, conf, new ClusterStateContext(DaemonType.UNKNOWN, conf));
            }
            return question.apply(storage);
        } catch (RuntimeException e) {
            throw new UiError(503, "ZooKeeper at " + conf.get("storm.zookeeper.servers") + ":" + conf.get("storm.zookeeper.port")
                + " does not answer (" + NimbusGateway.rootMessage(e) + ")", e);
        } catch (Exception e) {
            throw new UiError(503, "cannot connect to ZooKeeper: " + NimbusGateway.rootMessage(e), e);
        }
    }

    @Override
    public synchronized void close() {
        if (storage != null) {
            storage.close();
            storage = null;
        }
    }
}
