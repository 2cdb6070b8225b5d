package io.whale.bench.paper;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.examples.gen.KafkaTopicSink;
import io.whale.examples.kafka.TopicAdmin;
import io.whale.examples.smoke.RateSchedule;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.GZIPInputStream;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * The Kafka feed of one run of the paper benchmark, a process of its own beside the broker (on an emulated cluster,
 * in host 0's network namespace, where the broker's address is reachable): produces the lines of a generated CSV file
 * into the run's topic as its {@link FeedSchedule} says, reads the topology's committed offset (its consumer group,
 * through Kafka's Admin API) every {@value #OFFSETS_MILLIS} ms, and appends a JSON line to the events file at every
 * change of phase or measurement, the last one with every measured window. It starts measuring once the file
 * {@code RELEASE} exists (the driver's sign that the links are shaped). A paced window's latency is read from the
 * lines the application's reporter appends to {@code REPORT}. With {@code RATE_STEPS} (a {@link RateSchedule}, every
 * step with its seconds; "-" for none) it runs {@link FeedSchedule#steps} instead of the measurement's phases, and
 * appends a line at every step too. With {@code PROGRESS} {@value #PROGRESS_RESULTS} or {@value #PROGRESS_RECORDS}
 * (at-most-once runs) the progress the schedule reads is what the reporter counted ({@link ReporterProgress}) instead
 * of the committed offset, which then only says what the spout fetched. Exits 0 when done, 3 when the topology made no progress, or the start
 * was not released, within the start timeout.
 *
 * <pre>
 *   KafkaFeed BOOTSTRAP TOPIC GROUP DATA_CSV KEY_COLUMN BACKLOG WARMUP_S MEASURE_S PROBES P99_BOUND_MS COMMON_RATE
 *             START_TIMEOUT_S EVENTS RELEASE REPORT RATE_STEPS PROGRESS
 * </pre>
 */
public final class KafkaFeed {
    static final long OFFSETS_MILLIS = 200;
    /** {@code RATE_STEPS} for a run without rate steps. */
    static final String NO_STEPS = "-";
    /** {@code PROGRESS}: the consumer group's committed offset (at-least-once: committed once processed). */
    static final String PROGRESS_COMMITTED = "committed";
    /** {@code PROGRESS}: the results the reporter counted (at-most-once: one result per record, at the sink). */
    static final String PROGRESS_RESULTS = "results";
    /** {@code PROGRESS}: the records the reporter counted as finished (at-most-once, results not one per record). */
    static final String PROGRESS_RECORDS = "records";
    private static final long TICK_MILLIS = 5;
    private static final int PARTITIONS = 4;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String topic;
    private final String group;
    private final Path data;
    private final int keyColumn;
    private final Path events;
    private final Path release;
    /** Where progress is read at the sink; null: the consumer group's committed offset. */
    private final ReporterProgress atSink;
    private BufferedReader lines;
    private long position;
    private long dataPasses = 1;

    private KafkaFeed(String topic, String group, Path data, int keyColumn, Path events, Path release, ReporterProgress atSink) {
        this.topic = topic;
        this.group = group;
        this.data = data;
        this.keyColumn = keyColumn;
        this.events = events;
        this.release = release;
        this.atSink = atSink;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 17 || !List.of(PROGRESS_COMMITTED, PROGRESS_RESULTS, PROGRESS_RECORDS).contains(args[16])) {
            System.err.println("usage: KafkaFeed BOOTSTRAP TOPIC GROUP DATA_CSV KEY_COLUMN BACKLOG WARMUP_S MEASURE_S PROBES "
                + "P99_BOUND_MS COMMON_RATE START_TIMEOUT_S EVENTS RELEASE REPORT RATE_STEPS " + PROGRESS_COMMITTED + "|"
                + PROGRESS_RESULTS + "|" + PROGRESS_RECORDS);
            System.exit(2);
        }
        String bootstrap = args[0];
        Path report = Path.of(args[14]);
        FeedSchedule.Latency latency = (startMillis, endMillis) -> p99Millis(report, startMillis, endMillis);
        FeedSchedule schedule = args[15].equals(NO_STEPS)
            ? new FeedSchedule(Long.parseLong(args[5]), Long.parseLong(args[6]), Long.parseLong(args[7]), Integer.parseInt(args[8]),
                Double.parseDouble(args[9]), Double.parseDouble(args[10]), args[1].hashCode(), latency)
            : FeedSchedule.steps(Long.parseLong(args[5]), Long.parseLong(args[6]) + Long.parseLong(args[7]), RateSchedule.parse(args[15]),
                Double.parseDouble(args[9]), args[1].hashCode(), latency);
        KafkaFeed feed = new KafkaFeed(args[1], args[2], Path.of(args[3]), Integer.parseInt(args[4]), Path.of(args[12]),
            Path.of(args[13]), switch (args[16]) {
                case PROGRESS_RESULTS -> new ReporterProgress(report, "total_results");
                case PROGRESS_RECORDS -> new ReporterProgress(report, "total_records");
                default -> null;
            });
        System.exit(feed.run(bootstrap, schedule, TimeUnit.SECONDS.toNanos(Long.parseLong(args[11]))));
    }

    private static double p99Millis(Path report, long startMillis, long endMillis) {
        try {
            Histogram latency = ReporterLines.read(report).between(startMillis, endMillis);
            return latency.getTotalCount() == 0 ? -1 : latency.getValueAtPercentile(99);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private int run(String bootstrap, FeedSchedule schedule, long startTimeoutNanos) throws Exception {
        TopicAdmin.createTopics(bootstrap, Map.of(topic, PARTITIONS));
        Properties adminProps = new Properties();
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        long start = System.nanoTime();
        try (Admin admin = Admin.create(adminProps); KafkaTopicSink sink = new KafkaTopicSink(bootstrap, topic)) {
            lines = open();
            long committed = 0;
            boolean released = false;
            long offsetsRead = 0;
            FeedSchedule.Mark mark = null;
            while (schedule.phase() != FeedSchedule.Phase.DONE) {
                long now = System.nanoTime();
                if (now - offsetsRead >= TimeUnit.MILLISECONDS.toNanos(OFFSETS_MILLIS)) {
                    committed = atSink == null ? committed(admin) : atSink.results();
                    released = released || Files.exists(release);
                    offsetsRead = now;
                }
                long produce = schedule.tick(now, System.currentTimeMillis(), committed, released);
                for (long i = 0; i < produce; i++) {
                    produceNext(sink);
                }
                FeedSchedule.Mark at = schedule.mark();
                if (!at.equals(mark) && at.phase() != FeedSchedule.Phase.DONE) {
                    mark = at;
                    event(mark, schedule, committed);
                }
                if (mark != null && mark.phase() == FeedSchedule.Phase.STARTING && now - start > startTimeoutNanos) {
                    System.err.println("KafkaFeed: within " + TimeUnit.NANOSECONDS.toSeconds(startTimeoutNanos) + " s, "
                        + (atSink == null ? "consumer group " + group + " committed " + committed + " records of " + topic
                            : "the reporter counted " + committed + " results")
                        + (released ? "" : " and " + release + " did not appear"));
                    return 3;
                }
                TimeUnit.MILLISECONDS.sleep(TICK_MILLIS);
            }
        } finally {
            if (lines != null) {
                lines.close();
            }
        }
        Map<String, Object> last = new LinkedHashMap<>();
        last.put("timeMs", System.currentTimeMillis());
        last.put("phase", FeedSchedule.Phase.DONE.label());
        last.put("dataPasses", dataPasses);
        last.put("windows", schedule.windows());
        append(last);
        return 0;
    }

    private long committed(Admin admin) throws InterruptedException, ExecutionException, TimeoutException {
        Map<org.apache.kafka.common.TopicPartition, OffsetAndMetadata> offsets =
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        return offsets.entrySet().stream().filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
            .mapToLong(e -> e.getValue().offset()).sum();
    }

    /** The next data line; at the file's end it starts over (counted in {@code dataPasses}), its records made new. */
    private void produceNext(KafkaTopicSink sink) throws IOException {
        String line = lines.readLine();
        while (line == null || line.isEmpty()) {
            if (line == null) {
                lines.close();
                lines = open();
                dataPasses++;
            }
            line = lines.readLine();
        }
        if (keyColumn < 0) {
            sink.write(Long.toString(position), line);
        } else {
            line = ofPass(line, keyColumn, dataPasses);
            int start = fieldStart(line, keyColumn);
            sink.write(line.substring(start, fieldEnd(line, start)), line);
        }
        position++;
    }

    /**
     * A data line as pass {@code pass} of the file produces it: the line itself, but from the second pass on its key (an
     * order id) names the pass, so that the record is a new order. The applications take a known id within the message
     * timeout for a replay and decide nothing for it: a feed that started the file over while the first pass's decisions
     * were remembered made the run report no result for its next phase (a CI run of 2026-11-29, "series without data").
     */
    static String ofPass(String line, int keyColumn, long pass) {
        if (pass == 1) {
            return line;
        }
        int end = fieldEnd(line, fieldStart(line, keyColumn));
        return line.substring(0, end) + "-p" + pass + line.substring(end);
    }

    /** Where field {@code column} of a comma-separated line starts: found without splitting every record. */
    private static int fieldStart(String line, int column) {
        int start = 0;
        for (int i = 0; i < column; i++) {
            start = line.indexOf(',', start) + 1;
            if (start == 0) {
                throw new IllegalArgumentException("a data line has no field " + column + " (its key column): " + line);
            }
        }
        return start;
    }

    private static int fieldEnd(String line, int start) {
        int end = line.indexOf(',', start);
        return end < 0 ? line.length() : end;
    }

    private BufferedReader open() throws IOException {
        InputStream in = Files.newInputStream(data);
        if (data.toString().endsWith(".gz")) {
            in = new GZIPInputStream(in, 1 << 16);
        }
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
        reader.readLine();
        return reader;
    }

    private void event(FeedSchedule.Mark mark, FeedSchedule schedule, long committed) throws IOException {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("timeMs", System.currentTimeMillis());
        e.put("phase", mark.phase().label());
        e.put("measuring", mark.measuring());
        e.put("ratePerSecond", schedule.rate());
        if (mark.step() >= 0) {
            e.put("step", mark.step());
        }
        e.put("committed", committed);
        append(e);
    }

    private void append(Map<String, Object> line) throws IOException {
        Files.writeString(events, JSON.writeValueAsString(line) + System.lineSeparator(), StandardCharsets.UTF_8,
            StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
