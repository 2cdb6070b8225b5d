package io.whale.bench;

import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counts a task's orders and latencies on the executor thread and writes the task's {@link TaskReport}
 * every half second from a thread of its own, so the executor never waits for the disk.
 */
final class TaskReporter {
    static final long REPORT_INTERVAL_MILLIS = 500;
    /** Latencies from 1 µs to 10 minutes, 3 significant digits. */
    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);

    private final Path dir;
    private final TaskReport.Role role;
    private final int task;
    private final int workerPort;
    private final AtomicLong count = new AtomicLong();
    private final Recorder recorder = new Recorder(HIGHEST_MICROS, 3);
    private final Histogram cumulative = new Histogram(HIGHEST_MICROS, 3);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "whale-bench-report");
        t.setDaemon(true);
        return t;
    });

    private TaskReporter(Path dir, TaskReport.Role role, int task, int workerPort) {
        this.dir = dir;
        this.role = role;
        this.task = task;
        this.workerPort = workerPort;
    }

    static TaskReporter start(String dir, TaskReport.Role role, int task, int workerPort) {
        TaskReporter reporter = new TaskReporter(Path.of(dir), role, task, workerPort);
        reporter.timer.scheduleAtFixedRate(reporter::write, 0, REPORT_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        return reporter;
    }

    void counted() {
        count.lazySet(count.get() + 1);
    }

    void delivered(long latencyMicros) {
        recorder.recordValue(Math.min(Math.max(latencyMicros, 0), HIGHEST_MICROS));
        counted();
    }

    void stop() {
        timer.shutdownNow();
    }

    private void write() {
        cumulative.add(recorder.getIntervalHistogram());
        new TaskReport(role, task, ProcessHandle.current().pid(), workerPort, EpochMicros.now(), count.get(),
            role == TaskReport.Role.MATCHER ? cumulative : null).writeTo(dir);
    }
}
