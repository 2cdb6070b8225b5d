package io.whale.rdma.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.whale.config.WhaleConfig;
import io.whale.rdma.RdmaConfig;
import io.whale.rdma.channel.ChannelListener;
import io.whale.rdma.channel.ChannelSender;
import io.whale.rdma.channel.ChannelServer;
import io.whale.rdma.channel.RdmaTransport;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Recorder;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/**
 * What an RDMA channel's progress threads cost while the traffic is light, under each idle setting in
 * {@code bench.settings}, side by side in one run: two transports in this JVM (a sender's and a receiver's, one
 * progress thread each) over UCX's transports ({@code UCX_TLS} from the environment, the default ones otherwise); at
 * each offered rate (0 — connected and idle —, 10, 100, 1,000 and 10,000 messages of 100 bytes a second) every
 * setting, their order rotating from round to round, {@code bench.repeats} times (default 3). A setting is
 * {@code wait|poll:spins:yields[:inline[:delay]]} ({@code whale.rdma.progress.wait}, {@code .spins}, {@code .yields},
 * {@code whale.rdma.inline.bytes} and {@code whale.rdma.consumed.delay.ms}, their defaults when left out); the default
 * list compares today's default, waiting without a spin, polling, today's default with every work request reported
 * consumed at once (delay 0), and that with every work request fetched by READ (inline 0, the paper's channel). Each point reports
 * the CPU the two progress threads used (their thread CPU time over the point, in cores) and the one-way latency (the
 * send's {@link System#nanoTime} to the delivery's, one clock). Writes {@code <bench.out>/progress-idle.json} and {@code progress-idle.png}.
 */
public final class ProgressIdleBenchmark {
    private static final String SECRET = "progress-idle-benchmark";
    private static final int MESSAGE_BYTES = 100;
    private static final double[] RATES = {0, 10, 100, 1_000, 10_000};

    private final double seconds = Double.parseDouble(System.getProperty("bench.seconds", "3"));
    private final int repeats = Integer.parseInt(System.getProperty("bench.repeats", "3"));
    private final String chosenSettings = System.getProperty("bench.settings", "");
    private final List<Setting> settings = Setting.parseList(chosenSettings.isBlank() ? DEFAULT_SETTINGS : chosenSettings);
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    /** Today's default, waiting without a spin, polling, every work request reported at once, and by READ too. */
    private static final String DEFAULT_SETTINGS = String.format(
        "wait:%1$d:%2$d,wait:0:0,poll:%1$d:%2$d,wait:%1$d:%2$d:%3$d:0,wait:%1$d:%2$d:0:0", WhaleConfig.Defaults.RDMA_PROGRESS_SPINS,
        WhaleConfig.Defaults.RDMA_PROGRESS_YIELDS, WhaleConfig.Defaults.RDMA_INLINE_BYTES);

    /** An idle setting of the progress threads, the channel's inline limit and its consumption reports' delay. */
    record Setting(boolean progressWait, int spins, int yields, int inlineBytes, int consumedDelayMs) {
        static List<Setting> parseList(String text) {
            return Arrays.stream(text.split(",")).map(String::trim).map(Setting::parse).toList();
        }

        static Setting parse(String text) {
            String[] parts = text.split(":");
            if (parts.length < 3 || parts.length > 5 || !parts[0].matches("wait|poll")) {
                throw new IllegalArgumentException("bench.settings (Maven: -Dbench.progress.settings): '" + text
                    + "' is not wait|poll:spins:yields[:inline[:delay]]");
            }
            return new Setting(parts[0].equals("wait"), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]),
                parts.length >= 4 ? Integer.parseInt(parts[3]) : WhaleConfig.Defaults.RDMA_INLINE_BYTES,
                parts.length == 5 ? Integer.parseInt(parts[4]) : WhaleConfig.Defaults.RDMA_CONSUMED_DELAY_MS);
        }

        String label() {
            return (progressWait ? "waits" : "polls") + " after " + spins + " spins, " + yields + " yields"
                + (inlineBytes == 0 ? ", READ only" : inlineBytes == WhaleConfig.Defaults.RDMA_INLINE_BYTES ? ""
                    : ", inline ≤ " + inlineBytes + " B")
                + (consumedDelayMs == 0 ? ", each reported" : consumedDelayMs == WhaleConfig.Defaults.RDMA_CONSUMED_DELAY_MS ? ""
                    : ", reports held ≤ " + consumedDelayMs + " ms");
        }
    }

    record Point(Setting setting, double offeredPerSecond, int repeat, long messages, long delivered, double seconds,
                 double progressThreadCores, double latencyP50Micros, double latencyP99Micros) {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(System.getProperty("bench.out", "target/bench"));
        Files.createDirectories(out);
        new ProgressIdleBenchmark().run(out);
    }

    private void run(Path out) throws Exception {
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        measure(settings.get(0), 1_000, -1); // warm-up: JIT, UCX's first endpoints
        List<Point> points = new ArrayList<>();
        for (int repeat = 1; repeat <= repeats; repeat++) {
            for (double rate : RATES) {
                for (int i = 0; i < settings.size(); i++) {
                    Setting setting = settings.get((i + repeat - 1) % settings.size());
                    Point point = measure(setting, rate, repeat);
                    points.add(point);
                    System.out.printf("%-32s %6.0f msg/s offered, repeat %d: %6d delivered, progress threads %.4f core, "
                        + "latency p50 %.0f µs p99 %.0f µs%n", setting.label(), rate, repeat, point.delivered(),
                        point.progressThreadCores(), point.latencyP50Micros(), point.latencyP99Micros());
                }
            }
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("command", "cd whale-rdmachannel && mvn -q test-compile exec:exec@bench-progress-idle");
        report.put("settings", settings);
        report.put("transport", "UCX " + BenchChild.ucxEnvironment());
        report.put("messageBytes", MESSAGE_BYTES);
        report.put("secondsPerPoint", seconds);
        report.put("cpus", Runtime.getRuntime().availableProcessors());
        report.put("loadAverageBefore", loadBefore);
        report.put("loadAverageAfter", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        report.put("points", points);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.resolve("progress-idle.json").toFile(), report);
        plot(out.resolve("progress-idle"), settings, points);
        System.out.println("wrote " + out.toAbsolutePath() + "/progress-idle.json and progress-idle.png");
    }

    /**
     * One point: a fresh receiver and sender, connected, then {@link #seconds} at {@code ratePerSecond}, flushed per
     * message (so each message is a work request of its own, inline unless the setting's limit is 0).
     */
    private Point measure(Setting setting, double ratePerSecond, int repeat) throws Exception {
        RdmaConfig config = RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, SECRET, RdmaConfig.PROGRESS_WAIT,
            setting.progressWait(), RdmaConfig.PROGRESS_SPINS, setting.spins(), RdmaConfig.PROGRESS_YIELDS, setting.yields(),
            RdmaConfig.INLINE_BYTES, setting.inlineBytes(), RdmaConfig.CONSUMED_DELAY_MS, setting.consumedDelayMs()));
        Recorder latency = new Recorder(3);
        try (RdmaTransport receiving = RdmaTransport.start(config);
             RdmaTransport sending = RdmaTransport.start(config);
             ChannelServer server = receiving.bind(new InetSocketAddress("127.0.0.1", 0), batch -> {
                 long now = System.nanoTime();
                 batch.forEachMessage(message -> latency.recordValue(Math.max(0, now - message.getLong(message.position())) / 1_000));
                 batch.release();
             });
             ChannelSender sender = sending.connect(server.address(), ChannelListener.NONE)) {
            if (!sender.awaitConnected(Duration.ofSeconds(30))) {
                throw new IllegalStateException("no connection: " + sender.lastError());
            }
            ByteBuffer message = ByteBuffer.allocate(MESSAGE_BYTES);
            latency.reset();
            long cpuBefore = progressThreadsCpuNanos();
            long start = System.nanoTime();
            long end = start + (long) (seconds * 1e9);
            long interval = ratePerSecond > 0 ? (long) (1e9 / ratePerSecond) : Long.MAX_VALUE;
            long messages = 0;
            for (long now = start; now < end; now = System.nanoTime()) {
                long due = ratePerSecond > 0 ? start + messages * interval : end;
                if (due > now) {
                    LockSupport.parkNanos(Math.min(due, end) - now);
                    continue;
                }
                message.putLong(0, System.nanoTime()).clear();
                sender.send(message, Duration.ofSeconds(10));
                sender.flush();
                messages++;
            }
            if (!sender.awaitDrained(Duration.ofSeconds(30))) {
                throw new IllegalStateException("not drained: " + sender.lastError());
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            double cores = (progressThreadsCpuNanos() - cpuBefore) / 1e9 / elapsed;
            var histogram = latency.getIntervalHistogram();
            return new Point(setting, ratePerSecond, repeat, messages, histogram.getTotalCount(), elapsed, cores,
                histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99));
        }
    }

    /** The CPU time of every UCX progress thread alive (this run's two: each point closes its transports). */
    private long progressThreadsCpuNanos() {
        long sum = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith("whale-rdma-ucx-progress")) {
                sum += Math.max(0, threads.getThreadCpuTime(thread.getId()));
            }
        }
        return sum;
    }

    /** Per setting, the median of the rounds at each rate as a line and every round as a marker. */
    private static void plot(Path file, List<Setting> settings, List<Point> points) throws java.io.IOException {
        XYChart cpu = new XYChartBuilder().width(640).height(620).title("Progress threads' CPU (two threads)")
            .xAxisTitle("offered messages/s (0: idle, plotted at 1)").yAxisTitle("cores").build();
        XYChart p50 = new XYChartBuilder().width(640).height(620).title("One-way latency, median")
            .xAxisTitle("offered messages/s").yAxisTitle("µs").build();
        for (XYChart chart : List.of(cpu, p50)) {
            chart.getStyler().setXAxisLogarithmic(true).setLegendPosition(Styler.LegendPosition.OutsideS);
        }
        for (Setting setting : settings) {
            String name = setting.label();
            List<Point> mine = points.stream().filter(p -> p.setting().equals(setting)).toList();
            addSeries(cpu, name, mine, Point::progressThreadCores);
            addSeries(p50, name, mine.stream().filter(p -> p.delivered() > 0).toList(), Point::latencyP50Micros);
        }
        BitmapEncoder.saveBitmap(List.of(cpu, p50), 1, 2, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void addSeries(XYChart chart, String name, List<Point> points, ToDoubleFunction<Point> value) {
        double[] rates = points.stream().mapToDouble(Point::offeredPerSecond).distinct().sorted().toArray();
        double[] medians = new double[rates.length];
        for (int i = 0; i < rates.length; i++) {
            double rate = rates[i];
            double[] rounds = points.stream().filter(p -> p.offeredPerSecond() == rate).mapToDouble(value).sorted().toArray();
            medians[i] = rounds[rounds.length / 2];
        }
        chart.addSeries(name + " (median)", Arrays.stream(rates).map(r -> Math.max(1, r)).toArray(), medians);
        XYSeries rounds = chart.addSeries(name + " (each round)",
            points.stream().mapToDouble(p -> Math.max(1, p.offeredPerSecond())).toArray(), points.stream().mapToDouble(value).toArray());
        rounds.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    }
}
