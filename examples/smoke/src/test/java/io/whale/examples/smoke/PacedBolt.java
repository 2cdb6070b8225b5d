package io.whale.examples.smoke;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;

/**
 * Counts the tuples it processes. One task is deliberately slow: by default the first of this component's tasks in
 * a worker that does not run the source component, so its tuples cross workers; when the slow worker is
 * {@linkplain #NAMED named}, the first task of the worker whose port a test writes to {@value #SLOW_WORKER_FILE}
 * in the report folder (so a test can pick a worker once it knows the relay trees). After a warm-up of
 * {@code slowAfterSecs} from the start (or from the naming), so that the workers are connected and warm when
 * backpressure starts, it spends {@code slowMillis} on each tuple. Each task reports its count, whether it is
 * slowed down yet, its worker's port and heap to {@code task-<id>.properties} four times a second.
 */
public class PacedBolt extends BaseRichBolt {
    /** The slow worker is the one whose port is in {@value #SLOW_WORKER_FILE}. */
    public static final String NAMED = "named";
    /** The slow worker is the first without the source component. */
    public static final String FIRST_REMOTE = "first-remote";
    public static final String SLOW_WORKER_FILE = "slow-worker-port";
    private final String source;
    private final int slowMillis;
    private final int slowAfterSecs;
    private final String slowWorker;
    private final String reportDir;
    /** Set by the reporter thread when the worker is named; slowFromNanos is written before it. */
    private transient volatile boolean slowTask;
    private transient volatile long slowFromNanos;
    private transient volatile boolean slowed;
    private transient ProgressReporter reporter;
    /** Written by the executor thread only, read by the reporter. */
    private transient volatile long processed;

    public PacedBolt(String source, int slowMillis, int slowAfterSecs, String slowWorker, String reportDir) {
        if (!NAMED.equals(slowWorker) && !FIRST_REMOTE.equals(slowWorker)) {
            throw new IllegalArgumentException("slow worker must be " + FIRST_REMOTE + " or " + NAMED + ", not " + slowWorker);
        }
        this.source = source;
        this.slowMillis = slowMillis;
        this.slowAfterSecs = slowAfterSecs;
        this.slowWorker = slowWorker;
        this.reportDir = reportDir;
    }

    private static Path report(Path dir, int task) {
        return dir.resolve("task-" + task + ".properties");
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        List<Integer> workerTasks = context.getThisWorkerTasks();
        boolean sourceHere = context.getComponentTasks(source).stream().anyMatch(workerTasks::contains);
        int firstHere = context.getComponentTasks(context.getThisComponentId()).stream().filter(workerTasks::contains)
            .min(Integer::compare).orElseThrow();
        int taskId = context.getThisTaskId();
        boolean named = NAMED.equals(slowWorker);
        this.slowFromNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(slowAfterSecs);
        this.slowTask = !named && !sourceHere && taskId == firstHere;
        Path signal = Path.of(reportDir).resolve(SLOW_WORKER_FILE);
        String port = String.valueOf(context.getThisWorkerPort());
        this.reporter = new ProgressReporter(report(Path.of(reportDir), taskId), () -> {
            if (named && !slowTask && taskId == firstHere && port.equals(readIfThere(signal))) {
                slowFromNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(slowAfterSecs);
                slowTask = true;
            }
            Map<String, Object> sample = WorkerSample.of("processed", processed);
            sample.put("task", taskId);
            sample.put("slow", slowTask);
            sample.put("slowed", slowed);
            sample.put("port", port);
            return sample;
        });
    }

    private static String readIfThere(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file).trim() : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void execute(Tuple tuple) {
        if (slowTask && !slowed && System.nanoTime() - slowFromNanos >= 0) {
            slowed = true;
        }
        if (slowed) {
            try {
                Thread.sleep(slowMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        processed++;
    }

    @Override
    public void cleanup() {
        reporter.close();
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
    }
}
