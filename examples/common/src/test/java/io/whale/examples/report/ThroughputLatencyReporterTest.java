package io.whale.examples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;
import org.apache.storm.Config;
import org.apache.storm.Constants;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThroughputLatencyReporterTest {
    @TempDir
    Path dir;

    @Test
    void shouldReportCountAndLatencyOfEachIntervalOnEveryTick() throws Exception {
        Path file = dir.resolve("report.jsonl");
        OutputCollector collector = mock(OutputCollector.class);
        ThroughputLatencyReporter reporter = new ThroughputLatencyReporter("demo", "emitMillis", 5);
        reporter.prepare(Map.of(ThroughputLatencyReporter.REPORT_FILE_KEY, file.toString()), mock(TopologyContext.class), collector);
        assertEquals(5, reporter.getComponentConfiguration().get(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS));

        for (long age : new long[] {200, 200, 5_000}) {
            reporter.execute(resultEmitted(age));
        }
        reporter.execute(tick());
        reporter.execute(tick());

        verify(collector, times(3)).ack(any());
        List<String> lines = Files.readAllLines(file);
        assertEquals(2, lines.size());
        JsonNode first = new ObjectMapper().readTree(lines.get(0));
        assertEquals("demo", first.get("app").asText());
        assertEquals(3, first.get("results").asLong());
        assertTrue(first.get("p50_ms").asLong() >= 190 && first.get("p50_ms").asLong() < 1_000, lines.get(0));
        assertTrue(first.get("p99_ms").asLong() >= 4_900, lines.get(0));
        long binned = 0;
        long latencySum = 0;
        for (int i = 0; i < first.get("bin_results").size(); i++) {
            binned += first.get("bin_results").get(i).asLong();
            latencySum += first.get("bin_latency_sum_ms").get(i).asLong();
        }
        assertEquals(3, binned, "every result in a 100-ms bin: " + lines.get(0));
        assertTrue(latencySum >= 5_390 && latencySum < 7_000, "their latencies summed per bin: " + lines.get(0));
        assertEquals(100, first.get("bin_ms").asInt());
        JsonNode second = new ObjectMapper().readTree(lines.get(1));
        assertEquals(0, second.get("results").asLong(), "each interval starts afresh");
        assertEquals(3, second.get("total_results").asLong());
    }

    @Test
    void shouldCarryEachIntervalsHistogramSoThatIntervalsMerge() throws Exception {
        Path file = dir.resolve("report.jsonl");
        ThroughputLatencyReporter reporter = new ThroughputLatencyReporter("demo", "emitMillis", 1);
        reporter.prepare(Map.of(ThroughputLatencyReporter.REPORT_FILE_KEY, file.toString()), mock(TopologyContext.class),
            mock(OutputCollector.class));
        reporter.execute(resultEmitted(100));
        reporter.execute(tick());
        reporter.execute(resultEmitted(3_000));
        reporter.execute(resultEmitted(3_000));
        reporter.execute(tick());

        Histogram merged = new Histogram(3_600_000, 3);
        for (String line : Files.readAllLines(file)) {
            byte[] bytes = Base64.getDecoder().decode(new ObjectMapper().readTree(line).get("histogram").asText());
            merged.add(Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0));
        }
        assertEquals(3, merged.getTotalCount());
        assertTrue(merged.getMinValue() >= 100 && merged.getMinValue() < 1_000, "min " + merged.getMinValue());
        assertTrue(merged.getMaxValue() >= 2_990, "max " + merged.getMaxValue());
    }

    @Test
    void shouldReportTheRecordsTheBoltsBeforeItFinishedWhenTheySendProgress() throws Exception {
        Path file = dir.resolve("report.jsonl");
        TopologyContext context = mock(TopologyContext.class);
        when(context.getComponentTasks("matcher")).thenReturn(List.of(2, 3));
        when(context.getComponentTasks("split")).thenReturn(List.of(1));
        ThroughputLatencyReporter reporter = new ThroughputLatencyReporter("stock", "emitMillis", 1);
        reporter.prepare(Map.of(ThroughputLatencyReporter.REPORT_FILE_KEY, file.toString()), context, mock(OutputCollector.class));
        reporter.execute(tick());
        reporter.execute(progress("split", 1, 3, 0));
        reporter.execute(progress("matcher", 2, 7, 30));
        reporter.execute(progress("matcher", 3, 8, 25));
        reporter.execute(resultEmitted(100));
        reporter.execute(tick());

        List<String> lines = Files.readAllLines(file);
        assertTrue(new ObjectMapper().readTree(lines.get(0)).path("total_records").isMissingNode(),
            "no records counted before any progress came: " + lines.get(0));
        JsonNode second = new ObjectMapper().readTree(lines.get(1));
        assertEquals(3 + 7 + 8 + 25, second.get("total_records").asLong(), "the broadcast records both matchers finished");
        assertEquals(1, second.get("total_results").asLong(), "progress tuples are not results");
    }

    private static Tuple progress(String component, int task, long partitioned, long broadcast) {
        Tuple tuple = mock(Tuple.class);
        when(tuple.getSourceComponent()).thenReturn(component);
        when(tuple.getSourceTask()).thenReturn(task);
        when(tuple.getSourceStreamId()).thenReturn(ProgressStream.ID);
        when(tuple.getLong(0)).thenReturn(partitioned);
        when(tuple.getLong(1)).thenReturn(broadcast);
        return tuple;
    }

    /**
     * A result emitted {@code ageMillis} before now: the reporter reads its clock later, so it measures at least that
     * (stamping the emit time when the reporter asks for it, after it read its clock, measured up to a few ms less).
     */
    private static Tuple resultEmitted(long ageMillis) {
        Tuple tuple = mock(Tuple.class);
        when(tuple.getSourceComponent()).thenReturn("aggregator");
        when(tuple.getSourceStreamId()).thenReturn("default");
        when(tuple.getLongByField("emitMillis")).thenReturn(System.currentTimeMillis() - ageMillis);
        return tuple;
    }

    private static Tuple tick() {
        Tuple tuple = mock(Tuple.class);
        when(tuple.getSourceComponent()).thenReturn(Constants.SYSTEM_COMPONENT_ID);
        when(tuple.getSourceStreamId()).thenReturn(Constants.SYSTEM_TICK_STREAM_ID);
        return tuple;
    }
}
