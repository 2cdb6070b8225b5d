package io.whale.rdma.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.whale.rdma.RdmaConfig;
import io.whale.rdma.channel.ChannelListener;
import io.whale.rdma.channel.ChannelSender;
import io.whale.rdma.channel.RdmaTransport;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Channel throughput and one-way latency between two JVMs over UCX (sender here, {@link BenchReceiver} in a child
 * process): vs message size (64 B .. 1 MiB), vs Max Memory Size and vs Wait Time Limit (Whale Fig. 11/12).
 * Saturated runs send as fast as the ring allows, so their latency includes queueing in the ring; the WTL sweep
 * offers a fixed rate that never fills a work request, so the WTL decides when batches leave; the light-load
 * sweep sends 1000 msg/s (at most 50 MB/s) and flushes each message, so its latency is the path itself
 * (control message, READ, delivery) without slicing or queueing.
 * Writes {@code <out>/rdma-channel.json} and four PNGs. System properties: {@code bench.out} (directory),
 * {@code bench.seconds} (per point, default 1.0). UCX_* environment variables apply to both processes.
 */
public final class ChannelBenchmark {
    private static final String SECRET = "channel-benchmark";
    private static final int KIB = 1024;
    /** The light-load sweep offers 1000 msg/s, or less for big messages so that it stays under 50 MB/s. */
    private static final double LIGHT_LOAD_BYTES_PER_SECOND = 50e6;

    private final double seconds = Double.parseDouble(System.getProperty("bench.seconds", "1.0"));
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private int runs;
    private InetSocketAddress receiver;
    private BenchChild child;

    record Point(String sweep, int messageBytes, int mmsBytes, double wtlMillis, double offeredPerSecond,
                 long messages, double seconds, double messagesPerSecond, double megabytesPerSecond,
                 double latencyP50Micros, double latencyP99Micros, double latencyMaxMicros, long batches) {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(System.getProperty("bench.out", "target/bench"));
        Files.createDirectories(out);
        new ChannelBenchmark().run(out);
    }

    private void run(Path out) throws Exception {
        try (BenchChild started = BenchChild.start("256m", BenchReceiver.class, SECRET)) {
            child = started;
            receiver = new InetSocketAddress("127.0.0.1", child.port(Duration.ofSeconds(60)));
            double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            measure("warm-up", 1024, 256 * KIB, 1, 0, false);
            List<Point> bySize = new ArrayList<>();
            for (int size : new int[] {64, 256, KIB, 4 * KIB, 16 * KIB, 64 * KIB, 256 * KIB, 1024 * KIB}) {
                bySize.add(print(measure("message-size", size, 256 * KIB, 1, 0, false)));
            }
            List<Point> byMms = new ArrayList<>();
            for (int mms : new int[] {512, 2 * KIB, 8 * KIB, 32 * KIB, 128 * KIB, 256 * KIB, 512 * KIB, 1024 * KIB}) {
                byMms.add(print(measure("mms", KIB, mms, 1, 0, false)));
            }
            List<Point> byWtl = new ArrayList<>();
            for (double wtl : new double[] {1, 2, 5, 10, 20, 30}) {
                byWtl.add(print(measure("wtl", 256, 256 * KIB, wtl, 20_000, false)));
            }
            List<Point> lightLoad = new ArrayList<>();
            for (int size : new int[] {64, 256, KIB, 4 * KIB, 16 * KIB, 64 * KIB, 256 * KIB, 1024 * KIB}) {
                double rate = Math.min(1_000, LIGHT_LOAD_BYTES_PER_SECOND / size);
                lightLoad.add(print(measure("light-load", size, 256 * KIB, 1, rate, true)));
            }
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("transport", "UCX " + BenchChild.ucxEnvironment());
            report.put("secondsPerPoint", seconds);
            report.put("cpus", Runtime.getRuntime().availableProcessors());
            report.put("loadAverageBefore", loadBefore); // other processes share these cores
            report.put("loadAverageAfter", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            report.put("messageSize", bySize);
            report.put("maxMemorySize", byMms);
            report.put("waitTimeLimit", byWtl);
            report.put("lightLoadFlushed", lightLoad);
            json.writeValue(out.resolve("rdma-channel.json").toFile(), report);
            plot(out.resolve("rdma-channel-message-size"), "message size (bytes)", bySize, Point::messageBytes, true);
            plot(out.resolve("rdma-channel-mms"), "Max Memory Size (bytes), 1 KiB messages", byMms,
                    Point::mmsBytes, true);
            plot(out.resolve("rdma-channel-light-load"), "message size (bytes), <=1000 msg/s and <=50 MB/s, flushed",
                    lightLoad, Point::messageBytes, true);
            plot(out.resolve("rdma-channel-wtl"), "Wait Time Limit (ms), 256 B at 20k msg/s", byWtl,
                    Point::wtlMillis, false);
            System.out.println("wrote " + out.toAbsolutePath() + "/rdma-channel.json and rdma-channel-*.png");
        }
    }

    /**
     * One point: a fresh sender with this MMS/WTL sends for {@link #seconds} (at {@code ratePerSecond}, or as fast
     * as the ring allows when 0; flushing every message when {@code flushEach}), then an end marker.
     */
    private Point measure(String sweep, int messageBytes, int mmsBytes, double wtlMillis, double ratePerSecond,
                          boolean flushEach) throws Exception {
        int run = runs++;
        RdmaConfig config = RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, SECRET,
                RdmaConfig.MMS_BYTES, mmsBytes, RdmaConfig.WTL_MS, wtlMillis,
                RdmaConfig.RING_BYTES, Math.max(8 * 1024 * KIB, 4 * mmsBytes)));
        ByteBuffer message = ByteBuffer.allocate(messageBytes);
        long messages = 0;
        double elapsed;
        long batches;
        try (RdmaTransport transport = RdmaTransport.start(config);
             ChannelSender sender = transport.connect(receiver, ChannelListener.NONE)) {
            if (!sender.awaitConnected(Duration.ofSeconds(30))) {
                throw new IllegalStateException("no connection to the benchmark receiver: " + sender.lastError());
            }
            long start = System.nanoTime();
            long end = start + (long) (seconds * 1e9);
            long interval = ratePerSecond > 0 ? (long) (1e9 / ratePerSecond) : 0;
            long now = start;
            while (now < end) {
                if (interval > 0) {
                    long due = start + messages * interval;
                    if (due > now) {
                        LockSupport.parkNanos(due - now);
                    }
                }
                message.putLong(0, System.nanoTime()).putInt(Long.BYTES, run).clear();
                sender.send(message, Duration.ofSeconds(30));
                if (flushEach) {
                    sender.flush();
                }
                messages++;
                now = System.nanoTime();
            }
            message.putLong(0, System.nanoTime()).putInt(Long.BYTES, -run - 1).clear();
            sender.send(message, Duration.ofSeconds(30));
            if (!sender.awaitDrained(Duration.ofSeconds(60))) {
                throw new IllegalStateException("benchmark receiver did not consume the run");
            }
            elapsed = (System.nanoTime() - start) / 1e9;
            batches = sender.batchesSent();
        }
        String line = child.result(Duration.ofSeconds(60));
        @SuppressWarnings("unchecked")
        Map<String, Object> received = json.readValue(line, Map.class);
        long delivered = ((Number) received.get("messages")).longValue();
        if (delivered != messages) {
            throw new IllegalStateException("run " + run + ": sent " + messages + ", received " + delivered);
        }
        return new Point(sweep, messageBytes, mmsBytes, wtlMillis, ratePerSecond, messages, elapsed,
                messages / elapsed, messages * (double) messageBytes / elapsed / 1e6,
                ((Number) received.get("latencyP50Micros")).doubleValue(),
                ((Number) received.get("latencyP99Micros")).doubleValue(),
                ((Number) received.get("latencyMaxMicros")).doubleValue(), batches);
    }

    private static Point print(Point point) {
        System.out.printf("%-12s msg=%7d B  mms=%7d B  wtl=%4.1f ms  %10.0f msg/s  %9.1f MB/s  "
                        + "latency p50=%9.1f us p99=%9.1f us  batches=%d%n",
                point.sweep(), point.messageBytes(), point.mmsBytes(), point.wtlMillis(),
                point.messagesPerSecond(), point.megabytesPerSecond(), point.latencyP50Micros(),
                point.latencyP99Micros(), point.batches());
        return point;
    }

    private static void plot(Path file, String xTitle, List<Point> points,
                             java.util.function.ToDoubleFunction<Point> x, boolean logX) throws IOException {
        double[] xs = points.stream().mapToDouble(x).toArray();
        XYChart throughput = new XYChartBuilder().width(640).height(420).title("Throughput")
                .xAxisTitle(xTitle).yAxisTitle("MB/s").build();
        throughput.addSeries("MB/s", xs, points.stream().mapToDouble(Point::megabytesPerSecond).toArray());
        XYChart latency = new XYChartBuilder().width(640).height(420).title("One-way latency")
                .xAxisTitle(xTitle).yAxisTitle("microseconds").build();
        latency.addSeries("p50", xs, points.stream().mapToDouble(Point::latencyP50Micros).toArray());
        latency.addSeries("p99", xs, points.stream().mapToDouble(Point::latencyP99Micros).toArray());
        for (XYChart chart : List.of(throughput, latency)) {
            chart.getStyler().setXAxisLogarithmic(logX).setLegendPosition(Styler.LegendPosition.InsideNW);
        }
        latency.getStyler().setYAxisLogarithmic(true);
        BitmapEncoder.saveBitmap(List.of(throughput, latency), 1, 2, file.toString(),
                BitmapEncoder.BitmapFormat.PNG);
    }
}
