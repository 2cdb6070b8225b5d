package io.whale.bench;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskReporterTest {

    @Test
    void shouldWriteEveryTasksReportsFromOneThreadOfTheWorker(@TempDir Path dir) {
        List<TaskReporter> reporters = new ArrayList<>();
        try {
            for (int task = 1; task <= 16; task++) {
                TaskReporter reporter = TaskReporter.start(dir.toString(), TaskReport.Role.MATCHER, task, 16100);
                reporter.delivered(1_000);
                reporters.add(reporter);
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> TaskReport.readAll(dir).stream().filter(r -> r.count() == 1).count() == 16);

            long reportThreads = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(TaskReporter.THREAD_NAME)).count();
            assertEquals(1, reportThreads, "sixteen tasks' reports are written by one thread");
        } finally {
            reporters.forEach(TaskReporter::stop);
        }
    }

    @Test
    void shouldReportEveryLatencyRecordedWithinOnePercent(@TempDir Path dir) {
        TaskReporter reporter = TaskReporter.start(dir.toString(), TaskReport.Role.MATCHER, 7, 16100);
        try {
            for (long micros = 1_000; micros <= 100_000; micros += 1_000) {
                reporter.delivered(micros);
            }
            // A report reads the histogram before the count, so one written amid the deliveries may count more than it holds.
            await().atMost(Duration.ofSeconds(20))
                .until(() -> TaskReport.readAll(dir).stream().anyMatch(r -> r.count() == 100 && r.latencyMicros().getTotalCount() == 100));

            TaskReport report = TaskReport.readAll(dir).get(0);
            assertEquals(99_000, report.latencyMicros().getValueAtPercentile(99), 990);
            assertEquals(50_000, report.latencyMicros().getValueAtPercentile(50), 500);
        } finally {
            reporter.stop();
        }
    }
}
