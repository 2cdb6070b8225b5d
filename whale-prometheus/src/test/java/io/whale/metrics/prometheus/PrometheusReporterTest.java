package io.whale.metrics.prometheus;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.MetricRegistry;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics.MetricFamily;
import io.whale.config.PortRange;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.storm.Config;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PrometheusReporterTest {
    private static final String PROTOBUF = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited";
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<PrometheusReporter> started = new ArrayList<>();
    private WorkerRegistry worker;

    @BeforeEach
    void startWorkerRegistry() {
        worker = new WorkerRegistry();
    }

    @AfterEach
    void stopReportersAndRegistry() {
        try {
            started.forEach(PrometheusReporter::stop);
        } finally {
            worker.close();
        }
    }

    @Test
    void theSubmitCheckKnowsTheReporterByItsClassName() {
        assertEquals(PrometheusReporter.class.getName(), io.whale.config.WhaleConfigValidation.PROMETHEUS_REPORTER);
    }

    @Test
    void theEndpointServesTheTextFormat() throws Exception {
        worker.registry.counter("__emit-count", "spout", 3).inc(7);
        int port = start(FreePorts.range(3)).port().orElseThrow();

        HttpResponse<String> response = http.send(request(port).build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"),
            response.headers().toString());
        List<String> lines = response.body().lines().toList();
        String counter = "storm_emit_count_total{component=\"spout\",host=\"" + WorkerRegistry.host()
                         + "\",task=\"3\",topology=\"topo-1\",worker_port=\"6700\"} 7.0";
        assertTrue(lines.contains(counter), response.body());
        assertTrue(lines.contains("whale_prometheus_skipped_metrics_total{reason=\"gauge_failed\"} 0.0"), response.body());
    }

    @Test
    void theEndpointServesTheProtobufFormatWhenAskedForIt() throws Exception {
        worker.registry.counter("__emit-count", "spout", 3).inc(7);
        int port = start(FreePorts.range(3)).port().orElseThrow();

        HttpResponse<InputStream> response = http.send(request(port).header("Accept", PROTOBUF).build(),
            HttpResponse.BodyHandlers.ofInputStream());

        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("application/vnd.google.protobuf"),
            response.headers().toString());
        // The Java client has no parser of the text format, but its protobuf classes read what it writes.
        Map<String, MetricFamily> families = new HashMap<>();
        try (InputStream body = response.body()) {
            for (MetricFamily family; (family = MetricFamily.parseDelimitedFrom(body)) != null; ) {
                families.put(family.getName(), family);
            }
        }
        MetricFamily emitted = families.get("storm_emit_count_total");
        assertTrue(emitted != null, families.keySet().toString());
        assertEquals(Metrics.MetricType.COUNTER, emitted.getType());
        assertEquals(1, emitted.getMetricCount());
        Metrics.Metric metric = emitted.getMetric(0);
        Map<String, String> labels = new HashMap<>();
        metric.getLabelList().forEach(label -> labels.put(label.getName(), label.getValue()));
        assertEquals(Map.of("topology", "topo-1", "host", WorkerRegistry.host(), "worker_port", "6700",
            "component", "spout", "task", "3"), labels);
        assertEquals(7.0, metric.getCounter().getValue());
    }

    @Test
    void aSecondReporterOnTheSameRangeTakesTheNextPort() throws Exception {
        PortRange range = FreePorts.range(3);

        PrometheusReporter first = start(range);
        PrometheusReporter second = start(range);

        assertEquals(OptionalInt.of(range.first()), first.port());
        assertEquals(OptionalInt.of(range.first() + 1), second.port());
        assertEquals(200, http.send(request(range.first() + 1).build(), HttpResponse.BodyHandlers.discarding()).statusCode());
    }

    @Test
    void withEveryPortOfTheRangeTakenItServesNothingAndDoesNotThrow() throws Exception {
        PortRange range = FreePorts.range(2);
        List<ServerSocket> taken = new ArrayList<>();
        try {
            for (int port : range) {
                ServerSocket socket = new ServerSocket();
                taken.add(socket);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            }
            PrometheusReporter reporter = reporter(range);

            assertDoesNotThrow(reporter::start);
            assertEquals(OptionalInt.empty(), reporter.port());
            assertDoesNotThrow(reporter::stop);
        } finally {
            for (ServerSocket socket : taken) {
                socket.close();
            }
        }
    }

    @Test
    void stopReleasesThePort() throws Exception {
        PortRange range = FreePorts.range(1);
        PrometheusReporter reporter = start(range);
        assertEquals(OptionalInt.of(range.first()), reporter.port());

        reporter.stop();

        assertEquals(OptionalInt.empty(), reporter.port());
        assertTrue(FreePorts.allFree(range));
    }

    @Test
    void stormStartsItFromTopologyMetricsReporters() throws Exception {
        PortRange range = FreePorts.range(1);
        Map<String, Object> topoConf = new HashMap<>();
        topoConf.put(Config.STORM_ID, WorkerRegistry.TOPOLOGY);
        topoConf.put(Config.TOPOLOGY_METRICS_REPORTERS, List.of(Map.of(
            "class", PrometheusReporter.class.getName(),
            PrometheusReporter.PORT, range.toString(),
            PrometheusReporter.BIND_HOST, "127.0.0.1")));

        try (WorkerRegistry configured = new WorkerRegistry(topoConf)) {
            configured.registry.counter("__ack-count", "bolt", 5).inc(2);
            HttpResponse<String> response = http.send(request(range.first()).build(), HttpResponse.BodyHandlers.ofString());
            assertTrue(response.body().contains("storm_ack_count_total{component=\"bolt\""), response.body());
        }
        assertTrue(FreePorts.allFree(range), "the registry's stop stops the reporter");
    }

    @Test
    void aPortGivenAsANumberIsAccepted() throws Exception {
        PortRange range = FreePorts.range(1);
        PrometheusReporter reporter = new PrometheusReporter();
        reporter.prepare(worker.registry, Map.of(Config.STORM_ID, WorkerRegistry.TOPOLOGY),
            Map.of(PrometheusReporter.PORT, range.first(), PrometheusReporter.BIND_HOST, "127.0.0.1"));
        started.add(reporter);

        reporter.start();

        assertEquals(OptionalInt.of(range.first()), reporter.port());
    }

    @Test
    void aMissingOrMalformedPortFailsPrepareNamingIt() {
        PrometheusReporter reporter = new PrometheusReporter();
        Map<String, Object> topoConf = Map.of(Config.STORM_ID, WorkerRegistry.TOPOLOGY);

        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
            () -> reporter.prepare(worker.registry, topoConf, Map.of()));
        IllegalArgumentException malformed = assertThrows(IllegalArgumentException.class,
            () -> reporter.prepare(worker.registry, topoConf, Map.of(PrometheusReporter.PORT, "92x0")));

        assertTrue(missing.getMessage().contains("'port'"), missing.getMessage());
        assertTrue(malformed.getMessage().contains("'92x0'"), malformed.getMessage());
    }

    @Test
    @SuppressWarnings("deprecation")
    void preparingWithABareDropwizardRegistryFailsClearly() {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
            () -> new PrometheusReporter().prepare(new MetricRegistry(), Map.of(), Map.of(PrometheusReporter.PORT, "9250")));
        assertTrue(e.getMessage().contains("MetricRegistryProvider"), e.getMessage());
    }

    private PrometheusReporter reporter(PortRange range) {
        PrometheusReporter reporter = new PrometheusReporter();
        reporter.prepare(worker.registry, Map.of(Config.STORM_ID, WorkerRegistry.TOPOLOGY),
            Map.of(PrometheusReporter.PORT, range.toString(), PrometheusReporter.BIND_HOST, "127.0.0.1"));
        return reporter;
    }

    /** A started reporter, stopped after the test. */
    private PrometheusReporter start(PortRange range) {
        PrometheusReporter reporter = reporter(range);
        started.add(reporter);
        reporter.start();
        return reporter;
    }

    private static HttpRequest.Builder request(int port) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(10));
    }
}
