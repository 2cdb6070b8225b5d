package io.whale.ui.source;

import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics;
import io.whale.metrics.prometheus.PrometheusTargets;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads one worker's Prometheus endpoint the way Prometheus does, in the protobuf exposition format, and parses it
 * with the Prometheus Java client's own classes (the client has no parser for the text format). Each metric family
 * is summed over its label sets: the worker-level counters the Whale panel shows have one set per worker anyway.
 */
public final class WorkerScraper {
    static final String PROTOBUF = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited";
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    /** Family name (counters without their {@code _total}) to the sum of its samples; a {@link UiError} when down. */
    public Map<String, Double> scrape(PrometheusTargets.Target target) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + target.address() + "/metrics"))
            .timeout(TIMEOUT).header("Accept", PROTOBUF).build();
        try {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                if (response.statusCode() != 200) {
                    throw new UiError(502, endpoint(target) + " answered HTTP " + response.statusCode());
                }
                String type = response.headers().firstValue("Content-Type").orElse("none");
                if (!type.startsWith("application/vnd.google.protobuf")) {
                    throw new UiError(502, endpoint(target) + " answered " + type + ", not Prometheus' protobuf format");
                }
                return parse(body);
            }
        } catch (IOException e) {
            throw new UiError(502, endpoint(target) + " is down (" + NimbusGateway.rootMessage(e) + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UiError(503, "interrupted while reading " + endpoint(target), e);
        }
    }

    static Map<String, Double> parse(InputStream body) throws IOException {
        Map<String, Double> sums = new TreeMap<>();
        Metrics.MetricFamily family;
        while ((family = Metrics.MetricFamily.parseDelimitedFrom(body)) != null) {
            String name = family.getType() == Metrics.MetricType.COUNTER && family.getName().endsWith("_total")
                ? family.getName().substring(0, family.getName().length() - "_total".length()) : family.getName();
            double sum = 0;
            for (Metrics.Metric metric : family.getMetricList()) {
                sum += switch (family.getType()) {
                    case COUNTER -> metric.getCounter().getValue();
                    case GAUGE -> metric.getGauge().getValue();
                    case UNTYPED -> metric.getUntyped().getValue();
                    case SUMMARY -> metric.getSummary().getSampleCount();
                    default -> 0;
                };
            }
            sums.put(name, sum);
        }
        return sums;
    }

    private static String endpoint(PrometheusTargets.Target target) {
        return "the Prometheus endpoint of worker " + target.host() + ":" + target.workerPort() + " (" + target.address() + ")";
    }
}
