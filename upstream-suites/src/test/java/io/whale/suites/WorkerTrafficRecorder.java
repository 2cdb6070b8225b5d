package io.whale.suites;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.MetricRegistryListener;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import org.apache.storm.metrics2.reporters.StormReporter;

/**
 * A metrics reporter that reports nothing: the modes' daemon conf lists it in {@code topology.metrics.reporters}, so
 * every LocalCluster worker of the run (workers are threads of the test JVM) hands it its metric registry. It keeps
 * the worker's transport and WOC counters, tagged with the test that started the worker, for
 * {@link ModeInEffectTest} to read after the upstream classes ran. The counters stay readable after the worker
 * stopped and removed them from its registry.
 */
public class WorkerTrafficRecorder implements StormReporter {
    /** Counters and gauges of interest, by the end of their name in the worker's registry. */
    enum Traffic {
        /** Messages a worker's Netty client sent (gauge per destination worker, Storm's own). */
        NETTY_MESSAGES_SENT("__send-iconnection-sent-"),
        RDMA_MESSAGES_SENT("-rdma-messages-sent"),
        RDMA_MESSAGES_RECEIVED("-rdma-messages-received"),
        RDMA_MESSAGES_DROPPED("-rdma-messages-dropped"),
        RDMA_MESSAGES_MALFORMED("-rdma-messages-malformed"),
        WOC_FRAMES_SENT("-woc-frames-sent"),
        WOC_FRAMES_RECEIVED("-woc-frames-received"),
        WOC_FRAMES_MALFORMED("-woc-frames-malformed"),
        /** Acks the ack combining took, and the combined acks it sent (whale.woc.ack.combine, on with WOC). */
        WOC_ACKS_OFFERED("-woc-acks-offered"),
        WOC_ACKS_SENT("-woc-acks-sent");

        private final String marker;

        Traffic(String marker) {
            this.marker = marker;
        }

        /** Netty's gauges carry the destination after the marker; Whale's counters end with theirs. */
        boolean names(String metric) {
            return this == NETTY_MESSAGES_SENT ? metric.contains(marker) : metric.endsWith(marker);
        }
    }

    private record Sample(String test, Traffic traffic, LongSupplier value) {
    }

    private static final List<Sample> SAMPLES = new CopyOnWriteArrayList<>();

    /** Sum of one kind of traffic over every worker of the run. */
    static long total(Traffic traffic) {
        return SAMPLES.stream().filter(s -> s.traffic == traffic).mapToLong(s -> s.value.getAsLong()).sum();
    }

    /** One kind of traffic per test whose workers had any, in test order. */
    static Map<String, Long> byTest(Traffic traffic) {
        Map<String, Long> perTest = new TreeMap<>();
        SAMPLES.stream().filter(s -> s.traffic == traffic)
            .forEach(s -> perTest.merge(s.test, s.value.getAsLong(), Long::sum));
        perTest.values().removeIf(count -> count == 0);
        return perTest;
    }

    @Override
    @SuppressWarnings("deprecation")
    public void prepare(MetricRegistry registry, Map<String, Object> topoConf, Map<String, Object> reporterConf) {
        String test = RunningTest.current();
        registry.addListener(new MetricRegistryListener.Base() {
            @Override
            public void onCounterAdded(String name, Counter counter) {
                record(test, name, counter::getCount);
            }

            @Override
            public void onGaugeAdded(String name, Gauge<?> gauge) {
                record(test, name, () -> ((Number) gauge.getValue()).longValue());
            }
        });
    }

    private static void record(String test, String name, LongSupplier value) {
        for (Traffic traffic : Traffic.values()) {
            if (traffic.names(name)) {
                SAMPLES.add(new Sample(test, traffic, value));
            }
        }
    }

    @Override
    public void start() {
    }

    @Override
    public void stop() {
    }

    @Override
    public void close() {
    }
}
