package io.whale.metrics.prometheus;

import com.codahale.metrics.MetricRegistry;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.whale.config.PortRange;
import io.whale.metrics.prometheus.PrometheusTargets.Target;
import java.io.IOException;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.storm.Config;
import org.apache.storm.cluster.ClusterStateContext;
import org.apache.storm.cluster.ClusterUtils;
import org.apache.storm.cluster.DaemonType;
import org.apache.storm.cluster.IStateStorage;
import org.apache.storm.metrics2.MetricRegistryProvider;
import org.apache.storm.metrics2.reporters.StormReporter;
import org.apache.storm.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Storm metrics v2 reporter that serves the worker's task metrics ({@link StormMetricsCollector}) for Prometheus
 * at {@code http://HOST:PORT/metrics}, in the text format or, when asked for, the protobuf format, with the official
 * Prometheus Java client. Switched on per cluster ({@code storm.yaml}) or per topology:
 * <pre>
 * topology.metrics.reporters:
 *   - class: "io.whale.metrics.prometheus.PrometheusReporter"
 *     port: "9250-9260"
 * </pre>
 * {@value #PORT} (required) is a port or a range ({@link PortRange}); the endpoint listens on the first free one, so
 * the workers of a host each take their own. {@value #BIND_HOST} (optional, default {@value #DEFAULT_BIND_HOST},
 * like Storm's daemons) is the address it binds.
 *
 * <p>A worker run by a supervisor then publishes its endpoint in ZooKeeper ({@link PrometheusTargets}) for whale ui;
 * an in-process worker (LocalCluster: no {@code -Dworker.port} or no {@code storm.id}) serves without publishing.
 * Neither a port range without a free port nor a ZooKeeper failure fails the worker: both are logged, and the worker
 * runs on without the endpoint, or unlisted. A malformed {@value #PORT} fails {@link #prepare} with a message naming
 * the key and the value.
 */
public final class PrometheusReporter implements StormReporter {
    /** The reporter key of the port or port range. */
    public static final String PORT = PortRange.KEY;
    /** The reporter key of the address the endpoint binds. */
    public static final String BIND_HOST = "bind.host";
    public static final String DEFAULT_BIND_HOST = "0.0.0.0";
    /** The system property Storm's supervisor starts each worker JVM with: the worker's slot port. */
    static final String WORKER_PORT_PROPERTY = "worker.port";
    private static final Logger LOG = LoggerFactory.getLogger(PrometheusReporter.class);

    private MetricRegistryProvider metrics;
    private Map<String, Object> topoConf;
    private PortRange ports;
    private String bindHost;
    private HTTPServer server;
    /** The session {@link #published} lives in; both null when nothing is published. */
    private IStateStorage storage;
    private Target published;

    /**
     * Not supported: the endpoint serves Storm's task metrics, which only a {@link MetricRegistryProvider} has
     * (Storm's {@code StormMetricRegistry} prepares its reporters with one).
     *
     * @throws UnsupportedOperationException always
     */
    @Deprecated
    @Override
    public void prepare(MetricRegistry metricsRegistry, Map<String, Object> topoConf, Map<String, Object> reporterConf) {
        throw new UnsupportedOperationException("PrometheusReporter serves Storm's task metrics: prepare it with the"
                                                + " worker's MetricRegistryProvider (StormMetricRegistry), not a bare MetricRegistry");
    }

    /**
     * Reads the reporter's keys; serves nothing yet.
     *
     * @param topoConf the worker's topology conf: {@code storm.id}, {@code storm.local.hostname} and the ZooKeeper
     *     settings for publishing
     * @param reporterConf this reporter's entry of {@code topology.metrics.reporters}
     * @throws IllegalArgumentException if {@value #PORT} is missing or malformed
     */
    @Override
    public void prepare(MetricRegistryProvider metricRegistryProvider, Map<String, Object> topoConf,
                        Map<String, Object> reporterConf) {
        Object port = reporterConf.get(PORT);
        this.ports = PortRange.parse(port == null ? null : port.toString());
        this.bindHost = reporterConf.getOrDefault(BIND_HOST, DEFAULT_BIND_HOST).toString();
        this.metrics = metricRegistryProvider;
        this.topoConf = topoConf;
    }

    /** Serves the metrics on the first free port of the range, then publishes the endpoint; never throws. */
    @Override
    public synchronized void start() {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new StormMetricsCollector(metrics));
        Exception lastFailure = null;
        for (int port : ports) {
            try {
                server = HTTPServer.builder().hostname(bindHost).port(port).registry(registry).buildAndStart();
                break;
            } catch (IOException | RuntimeException e) {
                lastFailure = e;
            }
        }
        if (server == null) {
            LOG.error("PrometheusReporter: no port of {} ({} of the reporter) is free on {}; this worker's metrics are"
                      + " not served for Prometheus", ports, PORT, bindHost, lastFailure);
            return;
        }
        LOG.info("Serving this worker's metrics for Prometheus on {}:{}", bindHost, server.getPort());
        publish(server.getPort());
    }

    /** The port the endpoint listens on; empty before {@link #start}, after {@link #stop}, or with no free port. */
    public synchronized OptionalInt port() {
        return server == null ? OptionalInt.empty() : OptionalInt.of(server.getPort());
    }

    private void publish(int metricsPort) {
        Object topologyId = topoConf.get(Config.STORM_ID);
        String workerPort = System.getProperty(WORKER_PORT_PROPERTY);
        if (topologyId == null || workerPort == null) {
            LOG.info("Not publishing this worker's Prometheus endpoint in ZooKeeper: it has no {} (an in-process"
                     + " LocalCluster worker), so whale ui does not list it", topologyId == null ? Config.STORM_ID
                                                                                   : "-D" + WORKER_PORT_PROPERTY);
            return;
        }
        IStateStorage opened = null;
        try {
            Target target = new Target(topologyId.toString(), host(), Integer.parseInt(workerPort.trim()), metricsPort,
                ProcessHandle.current().pid());
            opened = ClusterUtils.mkStateStorage(topoConf, topoConf, new ClusterStateContext(DaemonType.WORKER, topoConf));
            PrometheusTargets.publish(opened, Utils.getWorkerACL(topoConf), target);
            storage = opened;
            published = target;
            LOG.info("Published this worker's Prometheus endpoint {} in ZooKeeper ({})", target.address(),
                PrometheusTargets.path(target.topologyId(), target.host(), target.workerPort()));
        } catch (Exception e) {
            LOG.warn("Could not publish this worker's Prometheus endpoint in ZooKeeper; it serves, but whale ui does"
                     + " not list it", e);
            if (opened != null) {
                opened.close();
            }
        }
    }

    private String host() throws UnknownHostException {
        Object configured = topoConf.get(Config.STORM_LOCAL_HOSTNAME);
        return configured == null || configured.toString().isEmpty() ? Utils.hostname() : configured.toString();
    }

    /** Removes the endpoint from ZooKeeper and stops serving; the server stops even if ZooKeeper fails. */
    @Override
    public synchronized void stop() {
        try {
            unpublish();
        } finally {
            HTTPServer serving = server;
            server = null;
            if (serving != null) {
                serving.stop();
            }
        }
    }

    /** {@link #stop}, for the {@link java.io.Closeable} a Dropwizard reporter is. */
    @Override
    public void close() {
        stop();
    }

    private void unpublish() {
        IStateStorage publishedIn = storage;
        Target target = published;
        storage = null;
        published = null;
        if (publishedIn == null) {
            return;
        }
        try {
            PrometheusTargets.unpublish(publishedIn, target);
        } catch (RuntimeException e) {
            LOG.info("Could not remove this worker's Prometheus endpoint from ZooKeeper; it goes with the session", e);
        } finally {
            publishedIn.close();
        }
    }
}
