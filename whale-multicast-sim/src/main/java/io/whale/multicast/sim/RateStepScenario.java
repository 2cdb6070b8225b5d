package io.whale.multicast.sim;

import io.whale.multicast.MulticastStructure;
import io.whale.multicast.control.ControllerConfig;
import io.whale.multicast.export.TreeExport;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Paper Fig. 23/24: the input rate steps 30k → 60k → 80k → 100k → 80k tuples/s every 40 s. The non-blocking tree
 * runs with the workers' control law in the loop, once with a switching delay that satisfies Theorem 4 and once
 * with one that does not; the binomial and sequential trees run fixed for comparison. The fast switch takes 3 ms and
 * 0.1 ms per move: the control law scales down one interval after the paper's controller would (it takes the lowest
 * read of an interval for the queue), so at the 100k step of the full run the source holds 465 tuples at the decision and
 * Theorem 4 leaves 5.6 ms for the 12 moves (6.2 ms at 5 ms + 0.1 ms per move).
 */
final class RateStepScenario {
    static final int DESTINATIONS = 30;
    static final long EMIT_NANOS = 4_000;
    static final int QUEUE_CAPACITY = 1024;
    static final long MONITOR_INTERVAL_NANOS = 10_000_000L;
    static final long FAST_SWITCH_NANOS = 3_000_000L;
    static final long SLOW_SWITCH_NANOS = 15_000_000L;
    static final long SWITCH_PER_MOVE_NANOS = 100_000L;

    private RateStepScenario() {
    }

    /** Throughput and latency of one run inside one rate phase (means of the 100 ms buckets). */
    record Phase(double fromSeconds, double toSeconds, double inputRate, double meanThroughput,
                 double meanLatencyMicros) {
    }

    record Run(String name, String structure, double switchFixedMillis, long arrived, long delivered,
               long droppedAtSource, double meanLatencyMicros, double p99LatencyMicros, List<Phase> phases,
               List<SwitchRecord> switches, SimulationResult.Series series) {
    }

    record Result(int destinations, long emitNanos, int queueCapacity, int waterline, double monitorIntervalMillis,
                  double switchPerMoveMillis, double stepSeconds, long seed, Map<String, Run> runs,
                  double throughputGainOverSequentialAt100kPercent, double paperThroughputGainAt100kPercent,
                  Map<String, SimulationResult.QueueTrace> queueTraces) {
    }

    static Result run(ScenarioOptions options) {
        double step = options.quick() ? 1.0 : 40.0;
        long duration = (long) (5 * step * 1e9);
        RateProfile profile = RateProfile.paperSteps(step);
        ControllerConfig controller = controller(step);
        SimulationConfig base = new SimulationConfig(DESTINATIONS, MulticastStructure.NONBLOCKING,
                DESTINATIONS, EMIT_NANOS, 0, QUEUE_CAPACITY, profile, duration, MONITOR_INTERVAL_NANOS, 0.8, null,
                0, 0, 100_000_000L, options.seed());
        Map<String, SimulationConfig> configs = new LinkedHashMap<>();
        configs.put("nonblocking-adaptive", base.withController(controller, FAST_SWITCH_NANOS, SWITCH_PER_MOVE_NANOS));
        configs.put("nonblocking-adaptive-slow-switch",
                base.withController(controller, SLOW_SWITCH_NANOS, SWITCH_PER_MOVE_NANOS));
        configs.put("binomial", fixed(base, MulticastStructure.BINOMIAL));
        configs.put("sequential", fixed(base, MulticastStructure.SEQUENTIAL));

        Map<String, Run> runs = new LinkedHashMap<>();
        Map<String, SimulationResult.QueueTrace> traces = new LinkedHashMap<>();
        for (Map.Entry<String, SimulationConfig> e : configs.entrySet()) {
            SimulationResult r = MulticastSimulator.run(e.getValue());
            Run run = new Run(e.getKey(), r.structure(), e.getValue().switchFixedNanos() / 1e6, r.arrived(),
                    r.delivered(), r.droppedAtSource(), r.meanLatencyMicros(), r.p99LatencyMicros(),
                    phases(profile, r.series(), duration), r.switches(), r.series());
            runs.put(e.getKey(), run);
            if (e.getValue().controller() != null) {
                traces.put(e.getKey(), r.queue());
            }
            if (e.getKey().equals("nonblocking-adaptive")) {
                writeFinalTree(options, r);
            }
            print(run);
        }
        double adaptive100k = runs.get("nonblocking-adaptive").phases().get(3).meanThroughput();
        double sequential100k = runs.get("sequential").phases().get(3).meanThroughput();
        Result result = new Result(DESTINATIONS, EMIT_NANOS, QUEUE_CAPACITY, controller.waterline(),
                MONITOR_INTERVAL_NANOS / 1e6, SWITCH_PER_MOVE_NANOS / 1e6, step, options.seed(), runs,
                100 * (adaptive100k / sequential100k - 1), 33.0, traces);
        System.out.printf(Locale.ROOT, "ratestep: at 100k tuples/s the adaptive non-blocking tree delivers %.0f/s, "
                + "sequential %.0f/s (+%.0f%%; paper +33%%)%n", adaptive100k, sequential100k,
                result.throughputGainOverSequentialAt100kPercent());
        Scenarios.writeJson(options.out().resolve("ratestep.json"), result);
        charts(options, result, runs, traces, controller, step);
        return result;
    }

    /**
     * The controller's settings for steps of {@code stepSeconds}: the defaults, with the memories of its failures
     * (10 s) and cascades (1 s) compressed as the steps are from the paper's 40 s. They are times of the load, and a
     * quick run's 1-s steps would otherwise take the scale-downs of two steps for one cascade.
     */
    static ControllerConfig controller(double stepSeconds) {
        ControllerConfig c = ControllerConfig.defaults(DESTINATIONS, QUEUE_CAPACITY);
        double compression = Math.min(1, stepSeconds / 40.0);
        return new ControllerConfig(c.destinations(), c.queueCapacity(), c.waterline(), c.scaleUpThreshold(),
                c.scaleDownThreshold(), c.holdIntervals(), c.scaleUpConfirmIntervals(),
                (int) Math.max(1, c.failureMemoryIntervals() * compression),
                (int) Math.max(1, c.cascadeIntervals() * compression));
    }

    /** The adaptive run's last tree with the monitors' view, as the UI and the docs would get it. */
    private static void writeFinalTree(ScenarioOptions options, SimulationResult r) {
        Scenarios.writeJson(options.out().resolve("ratestep-final-tree.json"),
                TreeExport.view(r.finalTree(), r.finalStatistics()));
        try {
            Path dot = options.out().resolve("ratestep-final-tree.dot");
            Files.writeString(dot, TreeExport.toDot(r.finalTree(), r.finalStatistics()));
            System.out.println("wrote " + dot.toAbsolutePath().normalize());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SimulationConfig fixed(SimulationConfig base, MulticastStructure structure) {
        return new SimulationConfig(base.destinations(), structure, base.initialMaxOutDegree(), base.emitNanos(),
                base.hopNanos(), base.queueCapacity(), base.rate(), base.durationNanos(),
                base.monitorIntervalNanos(), base.rateAlpha(), null, 0, 0, base.bucketNanos(), base.seed());
    }

    private static List<Phase> phases(RateProfile profile, SimulationResult.Series series, long duration) {
        List<Phase> phases = new ArrayList<>();
        long[] starts = profile.startsNanos();
        for (int i = 0; i < starts.length; i++) {
            double from = starts[i] * 1e-9;
            double to = (i + 1 < starts.length ? starts[i + 1] : duration) * 1e-9;
            double throughput = 0;
            double latency = 0;
            int buckets = 0;
            int latencyBuckets = 0;
            for (int b = 0; b < series.startSeconds().length; b++) {
                double t = series.startSeconds()[b];
                if (t >= from && t < to) {
                    throughput += series.throughput()[b];
                    buckets++;
                    if (series.meanLatencyMicros()[b] != null) {
                        latency += series.meanLatencyMicros()[b];
                        latencyBuckets++;
                    }
                }
            }
            phases.add(new Phase(from, to, profile.rates()[i], throughput / Math.max(1, buckets),
                    latencyBuckets == 0 ? Double.NaN : latency / latencyBuckets));
        }
        return phases;
    }

    private static void print(Run run) {
        System.out.printf(Locale.ROOT, "ratestep %-32s arrived=%d delivered=%d dropped=%d mean=%.1f µs p99=%.1f µs%n",
                run.name(), run.arrived(), run.delivered(), run.droppedAtSource(), run.meanLatencyMicros(),
                run.p99LatencyMicros());
        for (Phase p : run.phases()) {
            System.out.printf(Locale.ROOT, "    %5.0f-%5.0f s  input %6.0f/s  throughput %8.0f/s  latency %10.1f µs%n",
                    p.fromSeconds(), p.toSeconds(), p.inputRate(), p.meanThroughput(), p.meanLatencyMicros());
        }
        for (SwitchRecord s : run.switches()) {
            System.out.printf(Locale.ROOT, "    switch t*=%.2f s %s d*=%d->%d moves=%d T_switch=%.2f ms q(t*)=%d "
                            + "bound=%.2f ms holds=%s dropped=%d peak=%d under-waterline-after=%.0f ms%n",
                    s.decidedAtSeconds(), s.direction(), s.fromMaxOutDegree(), s.toMaxOutDegree(), s.moves(),
                    s.switchMillis(), s.queueAtDecision(), s.theorem4BoundMillis(), s.theorem4Holds(),
                    s.droppedDuringSwitch(), s.peakQueueDuringSwitch(), s.backUnderWaterlineMillis());
        }
    }

    private static void charts(ScenarioOptions options, Result result, Map<String, Run> runs,
                               Map<String, SimulationResult.QueueTrace> traces, ControllerConfig controller,
                               double step) {
        XYChart throughput = Charts.chart("Throughput as the input rate steps (Fig. 23), 100 ms buckets",
                "time (s)", "tuples/s");
        Run any = runs.values().iterator().next();
        Charts.line(throughput, "input rate", any.series().startSeconds(), any.series().inputRate());
        for (Run run : runs.values()) {
            Charts.line(throughput, run.name(), run.series().startSeconds(), run.series().throughput());
        }
        Charts.save(throughput, options.out().resolve("ratestep-throughput.png"));

        XYChart latency = Charts.chart("Mean multicast latency as the input rate steps (Fig. 24), 100 ms buckets",
                "time (s)", "µs (log scale)");
        latency.getStyler().setYAxisLogarithmic(true);
        for (Run run : runs.values()) {
            double[] y = Arrays.stream(run.series().meanLatencyMicros())
                    .mapToDouble(v -> v == null ? Double.NaN : v).toArray();
            Charts.line(latency, run.name(), run.series().startSeconds(), y);
        }
        Charts.save(latency, options.out().resolve("ratestep-latency.png"));

        XYChart queue = Charts.chart("Source transfer queue (sampled every Δt = 10 ms) and d*", "time (s)",
                "tuples in queue");
        for (Map.Entry<String, SimulationResult.QueueTrace> e : traces.entrySet()) {
            Charts.line(queue, e.getKey(), e.getValue().seconds(),
                    Arrays.stream(e.getValue().length()).asDoubleStream().toArray());
        }
        double[] ends = {0, 5 * step};
        Charts.line(queue, "waterline l_w", ends, new double[] {controller.waterline(), controller.waterline()});
        Charts.line(queue, "capacity Q", ends, new double[] {result.queueCapacity(), result.queueCapacity()});
        for (Map.Entry<String, SimulationResult.QueueTrace> e : traces.entrySet()) {
            XYSeries d = Charts.line(queue, "d* (" + e.getKey() + ")", e.getValue().seconds(),
                    Arrays.stream(e.getValue().maxOutDegree()).asDoubleStream().toArray());
            d.setYAxisGroup(1);
        }
        queue.setYAxisGroupTitle(1, "d*");
        Charts.save(queue, options.out().resolve("ratestep-queue.png"));

        XYChart zoom = Charts.chart(String.format(Locale.ROOT, "Queue around the first step (t = %.0f s)", step),
                "time (s)", "tuples in queue");
        for (Map.Entry<String, SimulationResult.QueueTrace> e : traces.entrySet()) {
            double[] t = e.getValue().seconds();
            int from = 0;
            while (from < t.length && t[from] < step - 0.1) {
                from++;
            }
            int to = from;
            while (to < t.length && t[to] < step + 0.5) {
                to++;
            }
            Charts.points(zoom, e.getKey(), Arrays.copyOfRange(t, from, to),
                    Arrays.stream(Arrays.copyOfRange(e.getValue().length(), from, to)).asDoubleStream().toArray());
        }
        double[] window = {step - 0.1, step + 0.5};
        Charts.line(zoom, "waterline l_w", window, new double[] {controller.waterline(), controller.waterline()});
        Charts.line(zoom, "capacity Q", window, new double[] {result.queueCapacity(), result.queueCapacity()});
        Charts.save(zoom, options.out().resolve("ratestep-switch-zoom.png"));
    }
}
