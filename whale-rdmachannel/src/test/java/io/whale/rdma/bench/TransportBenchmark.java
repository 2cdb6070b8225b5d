package io.whale.rdma.bench;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.messaging.ConnectionWithStatus;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.IContext;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.TransportFactory;
import org.apache.storm.utils.Utils;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Storm's messaging layer, worker to worker on one host: the stock Netty transport and Whale's RDMA transport
 * ({@code whale.transport}), side by side in one run, through the same {@code IContext}/{@code IConnection} API a
 * worker uses. The sending worker is this JVM, the receiving one a child JVM ({@link TransportBenchReceiver}); each
 * point sends fresh TaskMessages of one size as fast as the transport accepts them for {@code bench.seconds},
 * then an end marker, and the receiver reports bytes over the time from the first send to the last arrival.
 * Netty binds every interface: run it through {@code dev-tools/bench-transport.sh}, which uses a private network
 * namespace as root. Writes {@code <bench.out>/storm-transport.json} and {@code storm-transport.png}.
 */
public final class TransportBenchmark {
    static final String TOPOLOGY = "transport-benchmark-1-1";
    private static final int KIB = 1024;
    /** Messages handed to one {@code send} call carry about this many bytes, as a worker's transfer batch would. */
    private static final int BATCH_BYTES = 1024 * KIB;

    private final double seconds = Double.parseDouble(System.getProperty("bench.seconds", "2.0"));
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private int runs;

    record Point(String transport, int messageBytes, long messages, double seconds, double messagesPerSecond,
                 double megabytesPerSecond, double latencyP50Micros, double latencyP99Micros) {
    }

    /**
     * The topology conf both workers use: Storm's defaults plus the transport switch, plus any {@code -Dwhale.*}
     * or {@code -Dstorm.messaging.*} system property (handed to the receiving JVM too), e.g.
     * {@code -Dwhale.rdma.mms.bytes=1048576}.
     */
    static Map<String, Object> conf(String transport) {
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.put("whale.transport", transport);
        conf.put("whale.rdma.bind.host", "127.0.0.1");
        conf.putAll(BenchChild.settingOverrides());
        return conf;
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(System.getProperty("bench.out", "target/bench"));
        Files.createDirectories(out);
        List<String> transports = List.of(System.getProperty("bench.transports", "netty,rdma").split(","));
        int[] sizes = Arrays.stream(System.getProperty("bench.sizes", "1024,16384,65536,262144,1048576").split(","))
                .mapToInt(Integer::parseInt).toArray();
        new TransportBenchmark().run(out, transports, sizes);
    }

    private void run(Path out, List<String> transports, int[] sizes) throws Exception {
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        List<Point> points = new ArrayList<>();
        for (String transport : transports) {
            points.addAll(measureTransport(transport, sizes));
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("command", System.getProperty("bench.command", "mvn -q test-compile exec:exec@bench-transport"));
        report.put("secondsPerPoint", seconds);
        report.put("cpus", Runtime.getRuntime().availableProcessors());
        report.put("loadAverageBefore", loadBefore);
        report.put("loadAverageAfter", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        report.put("ucx", BenchChild.ucxEnvironment());
        report.put("settings", BenchChild.settingOverrides());
        report.put("ratios", ratios(points, transports));
        report.put("points", points);
        json.writeValue(out.resolve("storm-transport.json").toFile(), report);
        plot(out.resolve("storm-transport"), points, transports);
        System.out.println("ratios " + transports.get(transports.size() - 1) + "/" + transports.get(0) + " by size: "
                + report.get("ratios"));
        System.out.println("wrote " + out.toAbsolutePath() + "/storm-transport.json and storm-transport.png");
    }

    private List<Point> measureTransport(String transport, int[] sizes) throws Exception {
        List<Point> points = new ArrayList<>();
        IContext context = TransportFactory.makeContext(conf(transport), null);
        try (BenchChild receiver = BenchChild.start("768m", TransportBenchReceiver.class, transport)) {
            AtomicBoolean[] remoteBackPressure = {new AtomicBoolean()};
            IConnection client = context.connect(TOPOLOGY, "127.0.0.1", receiver.port(Duration.ofSeconds(60)),
                    remoteBackPressure);
            awaitReady(client);
            measure(client, receiver, transport, 64 * KIB, 0.5); // warm-up
            for (int size : sizes) {
                points.add(print(measure(client, receiver, transport, size, seconds)));
            }
            client.close();
        } finally {
            context.term();
        }
        return points;
    }

    private static void awaitReady(IConnection client) {
        await("connection to the benchmark receiver").atMost(Duration.ofSeconds(60))
                .until(() -> ((ConnectionWithStatus) client).status() == ConnectionWithStatus.Status.Ready);
    }

    private Point measure(IConnection client, BenchChild receiver, String transport, int size, double forSeconds)
            throws Exception {
        int run = runs++;
        int perBatch = Math.max(1, BATCH_BYTES / size);
        long sent = 0;
        long end = System.nanoTime() + (long) (forSeconds * 1e9);
        while (System.nanoTime() < end) {
            List<TaskMessage> batch = new ArrayList<>(perBatch);
            for (int i = 0; i < perBatch; i++) {
                batch.add(stamped(size, run));
            }
            client.send(batch.iterator());
            sent += perBatch;
        }
        client.send(List.of(stamped(64, -run - 1)).iterator());
        @SuppressWarnings("unchecked")
        Map<String, Object> result = json.readValue(receiver.result(Duration.ofSeconds(120)), Map.class);
        long received = ((Number) result.get("messages")).longValue();
        if (received != sent) {
            throw new IllegalStateException(transport + " run " + run + ": sent " + sent + ", received " + received);
        }
        double elapsed = ((Number) result.get("seconds")).doubleValue();
        return new Point(transport, size, received, elapsed, received / elapsed,
                ((Number) result.get("bytes")).longValue() / elapsed / 1e6,
                ((Number) result.get("latencyP50Micros")).doubleValue(),
                ((Number) result.get("latencyP99Micros")).doubleValue());
    }

    /** A fresh message (Netty encodes asynchronously, so buffers are never reused) stamped with time and run. */
    private static TaskMessage stamped(int size, int run) {
        byte[] payload = new byte[Math.max(size, Long.BYTES + Integer.BYTES)];
        ByteBuffer.wrap(payload).putLong(System.nanoTime()).putInt(run);
        return new TaskMessage(1, payload);
    }

    private static Point print(Point point) {
        System.out.printf("%-6s msg=%8d B  %10.0f msg/s  %9.1f MB/s  latency p50=%10.1f us p99=%10.1f us%n",
                point.transport(), point.messageBytes(), point.messagesPerSecond(), point.megabytesPerSecond(),
                point.latencyP50Micros(), point.latencyP99Micros());
        return point;
    }

    /** Throughput of the last transport over the first one's, per message size. */
    private static Map<Integer, Double> ratios(List<Point> points, List<String> transports) {
        Map<Integer, Double> ratios = new LinkedHashMap<>();
        if (transports.size() < 2) {
            return ratios;
        }
        for (Point base : points) {
            if (base.transport().equals(transports.get(0))) {
                points.stream().filter(p -> p.transport().equals(transports.get(transports.size() - 1))
                        && p.messageBytes() == base.messageBytes()).findFirst().ifPresent(other ->
                        ratios.put(base.messageBytes(), Math.round(other.megabytesPerSecond()
                                / base.megabytesPerSecond() * 100) / 100.0));
            }
        }
        return ratios;
    }

    private static void plot(Path file, List<Point> points, List<String> transports) throws IOException {
        XYChart throughput = new XYChartBuilder().width(640).height(420).title("Storm transport throughput")
                .xAxisTitle("message size (bytes)").yAxisTitle("MB/s").build();
        XYChart latency = new XYChartBuilder().width(640).height(420).title("One-way latency p50 (saturated)")
                .xAxisTitle("message size (bytes)").yAxisTitle("microseconds").build();
        for (String transport : transports) {
            List<Point> mine = points.stream().filter(p -> p.transport().equals(transport)).toList();
            double[] xs = mine.stream().mapToDouble(Point::messageBytes).toArray();
            throughput.addSeries(transport, xs, mine.stream().mapToDouble(Point::megabytesPerSecond).toArray());
            latency.addSeries(transport, xs, mine.stream().mapToDouble(Point::latencyP50Micros).toArray());
        }
        for (XYChart chart : List.of(throughput, latency)) {
            chart.getStyler().setXAxisLogarithmic(true).setLegendPosition(Styler.LegendPosition.InsideNW);
        }
        latency.getStyler().setYAxisLogarithmic(true);
        BitmapEncoder.saveBitmap(List.of(throughput, latency), 1, 2, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
