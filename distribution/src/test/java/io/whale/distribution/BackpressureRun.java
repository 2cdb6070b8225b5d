package io.whale.distribution;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.examples.smoke.BackpressureTopology;
import io.whale.examples.smoke.FloodSpout;
import io.whale.examples.smoke.PropertiesReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * One run of {@link BackpressureTopology} on a real cluster, measured from the tasks' reports: a spout flooding at
 * up to {@value #SPOUT_MAX_RATE} tuples/s sends 2 KB tuples to paced bolt tasks (all grouping); one task turns slow
 * ({@value #SLOW_MS} ms a tuple, a tenth of the spout's pace) once the workers are warm. The tuples emitted but not
 * yet processed by the slow task (the backlog) must stay within bounds derived from the configured queues and the
 * spout's rate, right after the slow-down and, once that overshoot has drained, over a fixed window in which the
 * spout also has to run at the slow task's pace; and the workers' heap after garbage collection stays small.
 */
final class BackpressureRun {
    static final int SLOW_MS = 2;
    static final int SLOW_AFTER_SECS = 5;
    /** Ten times the slow task's pace: fast enough to flood it, without the spout taking both cores. */
    static final int SPOUT_MAX_RATE = 5_000;
    static final int PAYLOAD_BYTES = 2_048;
    static final int RECEIVE_BUFFER = 1_024;
    static final int TRANSFER_BUFFER = 1_024;
    /** Netty's write buffer per connection (bytes) above which the sender waits; Storm's default is 16 MB. */
    static final int NETTY_HIGH_WATERMARK = 1 << 20;
    /** A transfer queue and a Netty write buffer, in tuples: what one more worker on the way can hold. */
    static final long WORKER_QUEUES = TRANSFER_BUFFER + NETTY_HIGH_WATERMARK / PAYLOAD_BYTES;
    /**
     * How long the spout is measured at the slow task's pace, at least; a spout slower on its own (a busy machine) is
     * measured longer, up to {@link #MAX_WINDOW} (see {@link Bounds#windowToTell} and {@link Measurement#assertBounded}).
     */
    static final Duration WINDOW = Duration.ofSeconds(15);
    /** Enough for a spout down to some 700 tuples/s on its own (CI beside the paper benchmark: 859/s needed 71 s). */
    static final Duration MAX_WINDOW = Duration.ofSeconds(120);
    /** The spout's own pace is its rate over this long before the slow-down. */
    private static final Duration OWN_RATE_OVER = Duration.ofSeconds(3);
    /**
     * Heap in use right after a collection, in any worker. The bounded backlog holds at most about 10 MB of
     * 2 KB payloads on top of a worker's own few tens of MB; a queue growing at the spout's surplus over the slow
     * task (some 9 MB/s) would pass this bound within the window, and the smaller worker's whole heap soon after.
     */
    static final long HEAP_AFTER_GC_BOUND_MB = 128;

    private BackpressureRun() {
    }

    /**
     * Where tuples can wait between the spout and the slow task, given what the workers between them hold beyond the
     * spout worker's queues ({@code extraQueued}, tuples).
     *
     * @param steady in steady state: the slow task's receive queue, the spout worker's transfer queue and Netty's
     *     write buffer (in tuples), the extra, plus what gets into the receive queue's overflow (unbounded:
     *     topology.executor.overflow.limit is 0) while a backpressure signal travels back to the spout, allowed
     *     half a second of the spout's rate. An unbounded queue would grow by the spout's surplus over the slow
     *     task, 4,500 tuples/s, all along.
     * @param slowDown right after the slow-down the first backpressure signal has to catch up with a spout at full
     *     pace. The overshoot is usually under 1,000 tuples, but in one development run with stock transfer the
     *     spout kept emitting for about two seconds (10,000 tuples), so three seconds of the spout's rate are
     *     allowed on top of the queues. The backlog must then drain to the queues' size.
     */
    record Bounds(long steady, long slowDown) {
        static Bounds beyondTheSpoutWorker(long extraQueued) {
            long queues = RECEIVE_BUFFER + WORKER_QUEUES + extraQueued;
            return new Bounds(queues + SPOUT_MAX_RATE / 2, queues + 3L * SPOUT_MAX_RATE);
        }

        /**
         * How long a spout that runs at {@code ownRate} on its own must be measured for an unbounded queue, growing by
         * the spout's surplus over the slow task, to pass five times the steady bound (at most {@link #MAX_WINDOW}).
         */
        Duration windowToTell(double ownRate) {
            double surplus = ownRate - 1000.0 / SLOW_MS;
            return surplus <= 0 ? MAX_WINDOW
                : Duration.ofMillis(Math.min(MAX_WINDOW.toMillis(), (long) Math.ceil(5_000.0 * steady / surplus)));
        }
    }

    /**
     * What one run measured: the spout's rate before the slow-down (its own pace), rates over the window, and
     * maxima from the slow-down to the end of the window; the worker logs as they were before the topology was
     * killed (a kill loses what is in flight, and the relays count it).
     */
    record Measurement(String name, Duration window, WorkerLogs logs, double spoutOwnRate, long slowDownBacklog, double spoutRate, double slowRate,
                       long windowBacklog, long maxHeapAfterGcMb, long maxHeapUsedMb, String slowTaskPort, Set<Long> pidsAtSlowDown,
                       Set<Long> pidsAtEnd) {
        @Override
        public String toString() {
            return String.format("%-10s spout before slow-down %5.0f tuples/s | max backlog after slow-down %5d | window: spout %5.1f"
                    + " tuples/s, slow task %5.1f tuples/s, max backlog %5d | max heap after GC %3d MB, max heap used %3d MB | slow task on port %s, worker pids %s",
                name, spoutOwnRate, slowDownBacklog, spoutRate, slowRate, windowBacklog, maxHeapAfterGcMb, maxHeapUsedMb, slowTaskPort, pidsAtEnd);
        }

        void assertBounded(Bounds bounds) {
            assertEquals(pidsAtSlowDown, pidsAtEnd, name + ": a worker restarted during the measurement");
            assertTrue((spoutOwnRate - 1000.0 / SLOW_MS) * (window.toMillis() / 1000.0) >= 5 * bounds.steady(),
                name + ": the spout is too slow on its own for the bound to tell a bounded queue from an unbounded one: " + this);
            assertTrue(slowRate > 0 && slowRate <= 1000.0 / SLOW_MS, name + ": the slow task is not " + SLOW_MS + " ms slow: " + this);
            assertTrue(slowDownBacklog <= bounds.slowDown(),
                name + ": after the slow-down, emitted but unprocessed tuples exceeded " + bounds.slowDown() + ": " + this);
            assertTrue(windowBacklog <= bounds.steady(),
                name + ": emitted but unprocessed tuples exceeded " + bounds.steady() + " in steady state: " + this);
            // Over the window the spout can get ahead of (or fall behind) the slow task only by what the queues hold.
            double slack = (double) bounds.steady() / (window.toMillis() / 1000.0);
            assertTrue(spoutRate <= 1.1 * slowRate + slack, name + ": the spout outran the slow task: " + this);
            assertTrue(spoutRate >= 0.9 * slowRate - slack, name + ": the spout fell behind the slow task: " + this);
            assertTrue(maxHeapAfterGcMb <= HEAP_AFTER_GC_BOUND_MB, name + ": worker heap after GC above " + HEAP_AFTER_GC_BOUND_MB + " MB: " + this);
        }
    }

    /** Told once the topology is submitted, before the measurement starts: e.g. to name the slow worker. */
    interface Submitted {
        void then(Path reports) throws Exception;
    }

    /**
     * Submits the topology as {@code name} with {@code conf} on top of the console metrics and the Netty buffer,
     * {@code tasks} bolt tasks over {@code workers} workers, measures over {@code window} (longer if the spout's own
     * pace needs it to tell {@code bounds} from an unbounded queue), kills it and waits for its workers to end.
     */
    static Measurement measure(PrivateLocalCluster cluster, String name, int tasks, int workers, List<String> conf,
                               List<String> args, Duration minWindow, Bounds bounds, Submitted submitted) throws Exception {
        Path reports = cluster.dir().resolve(name);
        List<String> settings = new ArrayList<>(List.of(WorkerLogs.CONSOLE_METRICS, "storm.messaging.netty.buffer.high.watermark=" + NETTY_HIGH_WATERMARK,
            "storm.messaging.netty.buffer.low.watermark=" + NETTY_HIGH_WATERMARK / 2));
        settings.addAll(conf);
        List<String> options = new ArrayList<>(List.of("--name", name,
            "--parallelism", String.valueOf(tasks), "--workers", String.valueOf(workers), "--slow-task-ms", String.valueOf(SLOW_MS),
            "--slow-after-secs", String.valueOf(SLOW_AFTER_SECS), "--spout-max-rate", String.valueOf(SPOUT_MAX_RATE),
            "--payload-bytes", String.valueOf(PAYLOAD_BYTES),
            "--receive-buffer", String.valueOf(RECEIVE_BUFFER), "--transfer-buffer", String.valueOf(TRANSFER_BUFFER),
            "--report-dir", reports.toString()));
        options.addAll(args);
        cluster.submit(settings, BackpressureTopology.class.getName(), options);
        submitted.then(reports);

        // Until the slow task slows down, the spout runs at its own pace: measured over its last seconds (warm).
        List<Snapshot> beforeSlowDown = new ArrayList<>();
        await(name + " slows down").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250)).until(() -> {
            Snapshot s = snapshot(reports);
            if (s.tasks().size() < tasks) {
                return false;
            }
            if (s.slowTask().map(BackpressureRun::slowed).orElse(false)) {
                return true;
            }
            if (emitted(s.spout()) > 0) {
                beforeSlowDown.add(s);
            }
            return false;
        });
        assertTrue(beforeSlowDown.size() >= 2, name + ": no samples before the slow-down");
        Properties last = beforeSlowDown.get(beforeSlowDown.size() - 1).spout();
        Properties from = beforeSlowDown.stream().map(Snapshot::spout).filter(p -> time(last) - time(p) <= OWN_RATE_OVER.toMillis())
            .findFirst().orElseThrow();
        assertTrue(time(last) > time(from), name + ": no two samples before the slow-down");
        double ownRate = rate(from, last, "emitted");
        Duration needed = bounds.windowToTell(ownRate);
        Duration window = needed.compareTo(minWindow) > 0 ? needed : minWindow;
        if (!window.equals(minWindow)) {
            System.out.printf("%s: the spout ran at %.0f tuples/s on its own: measured over %d s instead of %d s%n", name, ownRate,
                window.toSeconds(), minWindow.toSeconds());
        }

        Snapshot atSlowDown = snapshot(reports);
        Set<Long> pidsAtSlowDown = atSlowDown.pids();
        assertNotEquals(atSlowDown.spout().getProperty("pid"), atSlowDown.slow().getProperty("pid"), "the slow task is remote");
        Maxima slowDown = new Maxima(name, time(atSlowDown.spout()));
        slowDown.sample(atSlowDown);
        // The slow-down's overshoot drains first: the window opens once the backlog is down to the queues' size.
        await(name + " settles").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500))
            .until(() -> slowDown.sample(snapshot(reports)) <= RECEIVE_BUFFER + TRANSFER_BUFFER);
        Snapshot first = slowDown.last;
        Maxima steady = new Maxima(name, time(atSlowDown.spout()));
        long end = System.currentTimeMillis() + window.toMillis();
        await(name + " measured").atMost(window.plusSeconds(30)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            Snapshot s = snapshot(reports);
            steady.sample(s);
            return time(s.spout()) >= end && time(s.slow()) >= end;
        });
        Snapshot done = steady.last;
        Measurement m = new Measurement(name, window, cluster.workerLogs(name), ownRate, slowDown.backlog,
            rate(first.spout(), done.spout(), "emitted"), rate(first.slow(), done.slow(), "processed"), steady.backlog,
            Math.max(slowDown.heapAfterGc, steady.heapAfterGc) >> 20, Math.max(slowDown.heapUsed, steady.heapUsed) >> 20, atSlowDown.slow().getProperty("port"), pidsAtSlowDown, done.pids());
        System.out.println("BACKPRESSURE " + m);
        // The next run must not share the machine with this one.
        cluster.killAndAwaitExit(name);
        return m;
    }

    /** The largest backlog and heap figures seen over a phase's samples; each sample is printed. */
    private static final class Maxima {
        private final String name;
        private final long start;
        long backlog;
        long heapAfterGc;
        long heapUsed;
        Snapshot last;

        Maxima(String name, long start) {
            this.name = name;
            this.start = start;
        }

        /** Takes a sample into the maxima and gives its backlog. */
        long sample(Snapshot s) {
            last = s;
            long now = emitted(s.spout()) - processed(s.slow());
            backlog = Math.max(backlog, now);
            for (Properties p : s.all()) {
                heapAfterGc = Math.max(heapAfterGc, Long.parseLong(p.getProperty("heap.after.gc")));
                heapUsed = Math.max(heapUsed, Long.parseLong(p.getProperty("heap.used")));
            }
            System.out.printf("%s +%5.1fs emitted %8d  slow task processed %8d  backlog %6d  heap after GC %s%n", name,
                (time(s.spout()) - start) / 1000.0, emitted(s.spout()), processed(s.slow()), now,
                s.all().stream().map(p -> (Long.parseLong(p.getProperty("heap.after.gc")) >> 20) + "MB").distinct().toList());
            return now;
        }
    }

    private static double rate(Properties from, Properties to, String counter) {
        long n = Long.parseLong(to.getProperty(counter)) - Long.parseLong(from.getProperty(counter));
        return n * 1000.0 / (time(to) - time(from));
    }

    private static long emitted(Properties spout) {
        return Long.parseLong(spout.getProperty("emitted"));
    }

    private static long processed(Properties task) {
        return Long.parseLong(task.getProperty("processed"));
    }

    private static boolean slowed(Properties task) {
        return Boolean.parseBoolean(task.getProperty("slowed"));
    }

    private static long time(Properties report) {
        return Long.parseLong(report.getProperty("time.ms"));
    }

    /** The reports as they are now: the spout's and each bolt task's. */
    record Snapshot(Properties spout, List<Properties> tasks) {
        Optional<Properties> slowTask() {
            return tasks.stream().filter(t -> Boolean.parseBoolean(t.getProperty("slow"))).findFirst();
        }

        Properties slow() {
            return slowTask().orElseThrow(() -> new AssertionError("no paced task is slow: " + tasks));
        }

        List<Properties> all() {
            List<Properties> all = new ArrayList<>(tasks);
            all.add(spout);
            return all;
        }

        Set<Long> pids() {
            Set<Long> pids = new TreeSet<>();
            all().forEach(p -> pids.add(Long.parseLong(p.getProperty("pid"))));
            return pids;
        }
    }

    private static Snapshot snapshot(Path reports) {
        if (!Files.exists(reports.resolve(FloodSpout.REPORT))) {
            return new Snapshot(null, List.of());
        }
        try (Stream<Path> files = Files.list(reports)) {
            List<Properties> tasks = files.filter(f -> f.getFileName().toString().matches("task-\\d+\\.properties"))
                .map(PropertiesReport::read).toList();
            return new Snapshot(PropertiesReport.read(reports.resolve(FloodSpout.REPORT)), tasks);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
