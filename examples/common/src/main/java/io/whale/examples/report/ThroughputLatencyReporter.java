package io.whale.examples.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink of an example topology: counts results and measures their end-to-end latency (now minus
 * the emit time the source stamped into field {@code emitMillisField}), and every interval logs one
 * line {@code WHALE-REPORT {json}} with results/s and p50/p99 latency of the interval and since start, the
 * interval's latency histogram (HdrHistogram, compressed, base64 in {@code histogram}) so that a reader can merge
 * intervals into the percentiles of any window of them, and the interval's results and summed latency in bins of
 * 100 ms from its start ({@code bin_ms}, {@code bins_start_ms}, {@code bin_results}, {@code bin_latency_sum_ms}).
 * When the topology conf has {@value #REPORT_FILE_KEY}, each line's JSON is also appended to that file. Where the
 * results are not one per record, the bolts before it send their {@link ProgressStream} counts here and each line
 * carries {@code total_records}, the source's records the topology got through so far.
 *
 * <p>Run it with parallelism 1 behind a global grouping so the figures cover the whole topology.
 */
public class ThroughputLatencyReporter extends BaseRichBolt {
    public static final String REPORT_FILE_KEY = "whale.examples.report.file";
    private static final Logger LOG = LoggerFactory.getLogger(ThroughputLatencyReporter.class);
    private static final long MAX_LATENCY_MS = 3_600_000;

    private final String application;
    private final String emitMillisField;
    private final int intervalSeconds;
    private transient OutputCollector collector;
    private transient Histogram interval;
    private transient Histogram total;
    private transient long startMillis;
    private transient Path reportFile;
    private transient ObjectMapper json;
    private transient RecordProgress progress;
    private transient ResultBins bins;

    public ThroughputLatencyReporter(String application, String emitMillisField, int intervalSeconds) {
        this.application = application;
        this.emitMillisField = emitMillisField;
        this.intervalSeconds = intervalSeconds;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.interval = new Histogram(MAX_LATENCY_MS, 3);
        this.total = new Histogram(MAX_LATENCY_MS, 3);
        this.startMillis = System.currentTimeMillis();
        this.bins = new ResultBins(startMillis);
        Object file = conf.get(REPORT_FILE_KEY);
        this.reportFile = file == null ? null : Paths.get(file.toString());
        this.json = new ObjectMapper();
        this.progress = new RecordProgress(component -> context.getComponentTasks(component).size());
    }

    @Override
    public void execute(Tuple tuple) {
        if (TupleUtils.isTick(tuple)) {
            report(System.currentTimeMillis());
            return;
        }
        if (ProgressStream.carries(tuple)) {
            progress.update(tuple.getSourceComponent(), tuple.getSourceTask(), tuple.getLong(0), tuple.getLong(1));
            collector.ack(tuple);
            return;
        }
        long now = System.currentTimeMillis();
        long clamped = Math.max(0, Math.min(MAX_LATENCY_MS, now - tuple.getLongByField(emitMillisField)));
        interval.recordValue(clamped);
        total.recordValue(clamped);
        bins.record(now, clamped);
        collector.ack(tuple);
    }

    private void report(long now) {
        Map<String, Object> line = new LinkedHashMap<>();
        double seconds = Math.max(0.001, (now - bins.startMillis()) / 1000.0);
        line.put("app", application);
        line.put("time_ms", now);
        line.put("uptime_s", (now - startMillis) / 1000);
        line.put("results", interval.getTotalCount());
        line.put("results_per_s", Math.round(interval.getTotalCount() / seconds * 10) / 10.0);
        line.put("p50_ms", interval.getValueAtPercentile(50));
        line.put("p99_ms", interval.getValueAtPercentile(99));
        line.put("total_results", total.getTotalCount());
        line.put("total_p50_ms", total.getValueAtPercentile(50));
        line.put("total_p99_ms", total.getValueAtPercentile(99));
        if (progress.any()) {
            line.put("total_records", progress.records());
        }
        line.put("histogram", encoded(interval));
        line.put("bin_ms", ResultBins.BIN_MILLIS);
        line.put("bins_start_ms", bins.startMillis());
        line.put("bin_results", bins.results(now));
        line.put("bin_latency_sum_ms", bins.latencySums(now));
        interval.reset();
        bins.reset(now);
        String text;
        try {
            text = json.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        LOG.info("WHALE-REPORT {}", text);
        if (reportFile != null) {
            try {
                Files.writeString(reportFile, text + System.lineSeparator(), StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot append to " + reportFile, e);
            }
        }
    }

    /** The histogram compressed and in base64 ({@link Histogram#decodeFromCompressedByteBuffer} reads it back). */
    static String encoded(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    @Override
    public Map<String, Object> getComponentConfiguration() {
        Config conf = new Config();
        conf.put(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, intervalSeconds);
        return conf;
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
    }
}
