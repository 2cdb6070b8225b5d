package io.whale.rdma.storm;

import io.whale.config.WhaleConfig;
import io.whale.rdma.RdmaConfig;
import io.whale.rdma.channel.RdmaTransport;
import io.whale.flow.FrameWindow;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.IConnectionCallback;
import org.apache.storm.messaging.IContext;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Storm's messaging plugin over the RDMA channel: selected with {@code whale.transport: rdma} (or
 * {@code storm.messaging.transport: io.whale.rdma.storm.RdmaContext}). One context per worker, one channel
 * transport (one provider engine, one progress thread) per context; the channel settings come from the
 * topology conf ({@code whale.rdma.*}), the handshake secret from the topology ({@link TopologySecret}).
 */
public final class RdmaContext implements IContext {
    /** Address the receiving side binds, with the worker's port; 0.0.0.0 like Storm's Netty server. */
    public static final String BIND_HOST = WhaleConfig.RDMA_BIND_HOST;
    /** How long a send waits for ring space while connected before the batch is dropped (and logged). */
    public static final String SEND_TIMEOUT_MS = WhaleConfig.RDMA_SEND_TIMEOUT_MS;
    static final String DEFAULT_BIND_HOST = "0.0.0.0";
    static final long DEFAULT_SEND_TIMEOUT_MS = 5_000;
    private static final Logger LOG = LoggerFactory.getLogger(RdmaContext.class);

    /** Closed at {@link #term}; clients are closed by the worker itself, as with Netty. */
    private final List<RdmaServer> servers = new CopyOnWriteArrayList<>();
    private Map<String, Object> topoConf;
    private RdmaMetrics metrics;
    private RdmaTransport transport;
    private String transportTopology;

    @Override
    public void prepare(Map<String, Object> topoConf) {
        this.topoConf = topoConf;
        this.metrics = RdmaMetrics.unregistered();
    }

    @Override
    public void prepare(Map<String, Object> topoConf, StormMetricRegistry metricRegistry) {
        this.topoConf = topoConf;
        this.metrics = metricRegistry == null ? RdmaMetrics.unregistered() : RdmaMetrics.registeredIn(metricRegistry);
    }

    @Override
    public IConnection bind(String stormId, int port, IConnectionCallback cb, Supplier<Object> newConnectionResponse) {
        String host = topoConf.getOrDefault(BIND_HOST, DEFAULT_BIND_HOST).toString();
        RdmaServer server = new RdmaServer(transport(stormId), new InetSocketAddress(host, port), cb,
                newConnectionResponse, metrics, topoConf);
        servers.add(server);
        LOG.info("RDMA transport receiving for {} on {}", stormId, server);
        return server;
    }

    @Override
    public IConnection connect(String stormId, String host, int port, AtomicBoolean[] remoteBpStatus) {
        long timeoutMs = Long.parseLong(topoConf.getOrDefault(SEND_TIMEOUT_MS, DEFAULT_SEND_TIMEOUT_MS).toString());
        RdmaClient client = new RdmaClient(host + ":" + port, remoteBpStatus, Duration.ofMillis(timeoutMs),
                metrics, FrameWindow.forTopology(topoConf));
        client.attach(transport(stormId).connect(new InetSocketAddress(host, port), client));
        return client;
    }

    RdmaMetrics metrics() {
        return metrics;
    }

    /** Starts the provider on first use: a worker's context serves exactly one topology. */
    private synchronized RdmaTransport transport(String stormId) {
        if (transport == null) {
            Map<String, Object> channelConf = new HashMap<>(topoConf);
            channelConf.put(RdmaConfig.SECRET, TopologySecret.derive(topoConf, stormId));
            RdmaConfig config = RdmaConfig.fromMap(channelConf);
            transport = RdmaTransport.start(config);
            transportTopology = stormId;
            LOG.info("RDMA transport for {}: provider {}, MMS {} bytes, WTL {} ms, ring {} bytes, UCX settings {}, "
                    + "peers admitted by {}", stormId, config.provider(), config.maxMemorySizeBytes(),
                    config.waitTimeLimitNanos() / 1e6, config.ringBytes(), config.ucxSettings(),
                    TopologySecret.hasPayload(topoConf) || topoConf.get(RdmaConfig.SECRET) != null
                            ? "topology secret" : "topology id only (no storm.zookeeper.topology.auth.payload)");
        } else if (!transportTopology.equals(stormId)) {
            throw new IllegalStateException("this RDMA context serves " + transportTopology + ", not " + stormId);
        }
        return transport;
    }

    @Override
    public synchronized void term() {
        for (RdmaServer server : servers) {
            server.close();
        }
        servers.clear();
        if (transport != null) {
            transport.close();
            transport = null;
        }
    }
}
