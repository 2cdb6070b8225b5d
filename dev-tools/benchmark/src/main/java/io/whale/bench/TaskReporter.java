package io.whale.bench;

import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Counts a task's orders and latencies on the executor thread and writes the task's {@link TaskReport} every half
 * second from the worker's report thread, so the executor never waits for the disk.
 *
 * <p>The reports are the benchmark's apparatus and must cost the measured worker little: one thread writes every task's
 * reports, and the histograms keep 2 significant digits (percentiles within 1 %). With a thread per task and 3 digits
 * (21,504 buckets per histogram, each cleared, added and compressed twice a second per task), 64 matchers' reports took
 * 23–26 % of a core in the all-grouping benchmark at P = 64 (issue 33); with 2 digits a histogram has 3,072.
 */
final class TaskReporter {
    static final long REPORT_INTERVAL_MILLIS = 500;
    /** Latencies from 1 µs to 10 minutes. */
    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);
    static final int SIGNIFICANT_DIGITS = 2;
    static final String THREAD_NAME = "whale-bench-report";
    private static final ScheduledExecutorService WRITER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, THREAD_NAME);
        t.setDaemon(true);
        return t;
    });

    private final Path dir;
    private final TaskReport.Role role;
    private final int task;
    private final int workerPort;
    private final AtomicLong count = new AtomicLong();
    /** Written by the task's executor thread alone. */
    private final SingleWriterRecorder recorder = new SingleWriterRecorder(HIGHEST_MICROS, SIGNIFICANT_DIGITS);
    private final Histogram cumulative = new Histogram(HIGHEST_MICROS, SIGNIFICANT_DIGITS);
    /** The last interval read, handed back to the recorder to be reused. */
    private Histogram interval;
    private volatile ScheduledFuture<?> schedule;

    private TaskReporter(Path dir, TaskReport.Role role, int task, int workerPort) {
        this.dir = dir;
        this.role = role;
        this.task = task;
        this.workerPort = workerPort;
    }

    static TaskReporter start(String dir, TaskReport.Role role, int task, int workerPort) {
        TaskReporter reporter = new TaskReporter(Path.of(dir), role, task, workerPort);
        reporter.schedule = WRITER.scheduleAtFixedRate(reporter::write, 0, REPORT_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        return reporter;
    }

    void counted() {
        count.lazySet(count.get() + 1);
    }

    void delivered(long latencyMicros) {
        recorder.recordValue(Math.min(Math.max(latencyMicros, 0), HIGHEST_MICROS));
        counted();
    }

    /** Stops the task's reports; a write under way finishes first (the writer's thread runs one task at a time). */
    void stop() {
        schedule.cancel(false);
        try {
            WRITER.submit(() -> { }).get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the report writer did not finish its last write", e);
        }
    }

    private void write() {
        interval = recorder.getIntervalHistogram(interval);
        cumulative.add(interval);
        new TaskReport(role, task, ProcessHandle.current().pid(), workerPort, EpochMicros.now(), count.get(),
            role == TaskReport.Role.MATCHER ? cumulative : null).writeTo(dir);
    }
}
