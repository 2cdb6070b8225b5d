package io.whale.examples.smoke;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Writes a task's progress report every 250 ms from a thread of its own, so the report's time stays current
 * also while the task is held back by backpressure or busy with a slow tuple.
 */
final class ProgressReporter implements AutoCloseable {
    private static final long PERIOD_MS = 250;
    private final ScheduledExecutorService timer;

    ProgressReporter(Path file, Supplier<Map<String, Object>> sample) {
        PropertiesReport report = new PropertiesReport(file);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "progress-report-" + file.getFileName());
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(() -> report.write(sample.get()), 0, PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    /** Stops the reports; a write under way finishes first, so nothing writes to the report's folder after this returns. */
    @Override
    public void close() {
        timer.shutdown();
        try {
            if (!timer.awaitTermination(5, TimeUnit.SECONDS)) {
                timer.shutdownNow();
            }
        } catch (InterruptedException e) {
            timer.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
