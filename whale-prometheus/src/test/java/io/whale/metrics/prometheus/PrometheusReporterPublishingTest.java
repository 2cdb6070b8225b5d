package io.whale.metrics.prometheus;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.metrics.prometheus.PrometheusTargets.Target;
import io.whale.security.WorkerZkRoots;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.storm.Config;
import org.apache.storm.cluster.DaemonType;
import org.apache.storm.cluster.IStateStorage;
import org.apache.storm.shade.org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reporter as a supervisor's worker runs it: with {@code -Dworker.port}, publishing in ZooKeeper. */
class PrometheusReporterPublishingTest {
    private static final int WORKER_PORT = 6703;
    private WorkerRegistry worker;
    private String workerPortBefore;

    @BeforeEach
    void becomeASupervisorsWorker() {
        workerPortBefore = System.setProperty(PrometheusReporter.WORKER_PORT_PROPERTY, Integer.toString(WORKER_PORT));
        worker = new WorkerRegistry();
    }

    @AfterEach
    void restore() {
        try {
            worker.close();
        } finally {
            if (workerPortBefore == null) {
                System.clearProperty(PrometheusReporter.WORKER_PORT_PROPERTY);
            } else {
                System.setProperty(PrometheusReporter.WORKER_PORT_PROPERTY, workerPortBefore);
            }
        }
    }

    @Test
    void aStartedReporterIsListedAndAStoppedOneIsNot(@TempDir Path dataDir) throws Exception {
        try (LoopbackZooKeeper zookeeper = new LoopbackZooKeeper(dataDir)) {
            Map<String, Object> topoConf = zookeeper.conf("/storm");
            topoConf.put(Config.STORM_ID, "topo-9");
            topoConf.put(Config.STORM_LOCAL_HOSTNAME, "worker-host");
            IStateStorage ui = LoopbackZooKeeper.session(topoConf, DaemonType.UNKNOWN);
            PrometheusReporter reporter = reporter(topoConf);
            try {
                reporter.start();
                int metricsPort = reporter.port().orElseThrow();

                List<Target> targets = PrometheusTargets.read(ui);

                assertEquals(List.of(new Target("topo-9", "worker-host", WORKER_PORT, metricsPort, ProcessHandle.current().pid())), targets);
                HttpResponse<String> scraped = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
                assertEquals(200, scraped.statusCode());
            } finally {
                reporter.stop();
                try {
                    assertEquals(List.of(), PrometheusTargets.read(ui));
                } finally {
                    ui.close();
                }
            }
        }
    }

    /**
     * With ZooKeeper authentication on (as Storm's SASL between workers needs): Nimbus owns Storm's root, the worker
     * authenticates as its topology. It cannot publish until Nimbus made Whale's roots (storm-server patch 0004), then
     * it does, and the UI, authenticated as the cluster, reads it.
     */
    @Test
    void aWorkerPublishesUnderZooKeeperAuthenticationOnceNimbusMadeWhalesRoots(@TempDir Path dataDir) throws Exception {
        try (LoopbackZooKeeper zookeeper = new LoopbackZooKeeper(dataDir)) {
            Map<String, Object> cluster = zookeeper.conf("/storm");
            cluster.put(Config.STORM_ZOOKEEPER_AUTH_SCHEME, "digest");
            cluster.put(Config.STORM_ZOOKEEPER_AUTH_PAYLOAD, "cluster:secret");
            cluster.put(Config.STORM_ZOOKEEPER_SUPERACL, "digest:" + DigestAuthenticationProvider.generateDigest("cluster:secret"));
            LoopbackZooKeeper.session(cluster, DaemonType.NIMBUS).close();
            Map<String, Object> topoConf = new HashMap<>(cluster);
            topoConf.put(Config.STORM_ID, "topo-9");
            topoConf.put(Config.STORM_LOCAL_HOSTNAME, "worker-host");
            topoConf.put(Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_SCHEME, "digest");
            topoConf.put(Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_PAYLOAD, "topo-9:" + UUID.randomUUID());
            IStateStorage ui = LoopbackZooKeeper.session(cluster, DaemonType.UNKNOWN);
            try {
                PrometheusReporter refused = reporter(topoConf);
                try {
                    refused.start();
                    assertEquals(List.of(), PrometheusTargets.read(ui), "a worker may not create under Nimbus's root");
                } finally {
                    refused.stop();
                }

                WorkerZkRoots.prepare(cluster);
                PrometheusReporter reporter = reporter(topoConf);
                try {
                    reporter.start();
                    assertEquals(List.of(new Target("topo-9", "worker-host", WORKER_PORT, reporter.port().orElseThrow(),
                        ProcessHandle.current().pid())), PrometheusTargets.read(ui));
                } finally {
                    reporter.stop();
                }
            } finally {
                ui.close();
            }
        }
    }

    @Test
    void anUnreachableZooKeeperDoesNotFailTheWorker() throws Exception {
        int nothingListens;
        try (ServerSocket socket = new ServerSocket(0)) {
            nothingListens = socket.getLocalPort();
        }
        Map<String, Object> topoConf = LoopbackZooKeeper.conf(nothingListens, "/storm");
        topoConf.put(Config.STORM_ID, "topo-9");
        topoConf.put(Config.STORM_ZOOKEEPER_CONNECTION_TIMEOUT, 500);
        topoConf.put(Config.STORM_ZOOKEEPER_SESSION_TIMEOUT, 1000);
        topoConf.put(Config.STORM_ZOOKEEPER_RETRY_TIMES, 0);
        PrometheusReporter reporter = reporter(topoConf);
        try {
            assertDoesNotThrow(reporter::start);

            assertTrue(reporter.port().isPresent(), "it serves unlisted");
        } finally {
            assertDoesNotThrow(reporter::stop);
        }
    }

    private PrometheusReporter reporter(Map<String, Object> topoConf) throws Exception {
        PrometheusReporter reporter = new PrometheusReporter();
        reporter.prepare(worker.registry, new HashMap<>(topoConf), Map.of(PrometheusReporter.PORT,
            FreePorts.range(1).toString(), PrometheusReporter.BIND_HOST, "127.0.0.1"));
        return reporter;
    }
}
