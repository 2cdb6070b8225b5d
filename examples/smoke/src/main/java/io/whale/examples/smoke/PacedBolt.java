package io.whale.examples.smoke;

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
 * Counts the tuples it processes. One task is deliberately slow: the first of this component's tasks in a
 * worker that does not run the source component, so its tuples cross workers. After a warm-up of
 * {@code slowAfterSecs} (so the workers are connected and warm when backpressure starts) it spends
 * {@code slowMillis} on each tuple. Each task reports its count, whether it is slowed down yet, and its
 * worker's heap to {@code task-<id>.properties} four times a second.
 */
public class PacedBolt extends BaseRichBolt {
    private final String source;
    private final int slowMillis;
    private final int slowAfterSecs;
    private final String reportDir;
    private transient boolean slowTask;
    private transient long slowFromNanos;
    private transient volatile boolean slowed;
    private transient ProgressReporter reporter;
    /** Written by the executor thread only, read by the reporter. */
    private transient volatile long processed;

    public PacedBolt(String source, int slowMillis, int slowAfterSecs, String reportDir) {
        this.source = source;
        this.slowMillis = slowMillis;
        this.slowAfterSecs = slowAfterSecs;
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
        this.slowTask = !sourceHere && context.getThisTaskId() == firstHere;
        this.slowFromNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(slowAfterSecs);
        int taskId = context.getThisTaskId();
        this.reporter = new ProgressReporter(report(Path.of(reportDir), taskId), () -> {
            Map<String, Object> sample = WorkerSample.of("processed", processed);
            sample.put("task", taskId);
            sample.put("slow", slowTask);
            sample.put("slowed", slowed);
            return sample;
        });
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
