package io.whale.multicast.sim;

import io.whale.multicast.MulticastStructure;
import io.whale.multicast.MulticastTree;
import org.knowm.xchart.XYChart;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Paper Fig. 21: average multicast latency against the number of destinations for the sequential, binomial and
 * non-blocking (d* = 3) trees, all fed the same Poisson input.
 */
final class Fig21Scenario {
    static final int NONBLOCKING_MAX_OUT_DEGREE = 3;
    static final long EMIT_NANOS = 4_000;
    static final int QUEUE_CAPACITY = 1024;
    /** Paper §5.2: at parallelism 480 the non-blocking tree's latency is this much lower (Didi dataset). */
    static final double PAPER_REDUCTION_VS_BINOMIAL = 54.4;
    static final double PAPER_REDUCTION_VS_SEQUENTIAL = 57.8;

    private Fig21Scenario() {
    }

    /**
     * @param unloadedLatencyMicros completion steps × t_e: the latency of a lone tuple
     * @param saturated             the source's queue overflowed (input rate above what the tree sustains)
     */
    record Point(int destinations, String structure, int sourceOutDegree, int completionSteps,
                 double unloadedLatencyMicros, double meanLatencyMicros, double p99LatencyMicros,
                 double throughput, long droppedAtSource, boolean saturated) {
    }

    record Result(double inputRate, long emitNanos, int queueCapacity, int nonblockingMaxOutDegree,
                  double simulatedSecondsPerPoint, long seed, List<Point> points, int comparedAt,
                  double reductionVsBinomialPercent, double reductionVsSequentialPercent,
                  double paperReductionVsBinomialPercent, double paperReductionVsSequentialPercent) {
    }

    static Result run(ScenarioOptions options) {
        int[] sizes = options.quick() ? new int[] {30, 60} : new int[] {30, 60, 120, 240, 480};
        long duration = options.quick() ? 100_000_000L : 2_000_000_000L;
        MulticastStructure[] structures = MulticastStructure.values();
        List<Point> points = new ArrayList<>();
        XYChart chart = Charts.chart(String.format(Locale.ROOT,
                        "Average multicast latency, λ = %.0f tuples/s, t_e = %d µs, Q = %d", options.rate(),
                        EMIT_NANOS / 1000, QUEUE_CAPACITY),
                "destinations n", "mean multicast latency (µs, log scale)");
        chart.getStyler().setYAxisLogarithmic(true);
        for (MulticastStructure structure : structures) {
            double[] x = new double[sizes.length];
            double[] y = new double[sizes.length];
            for (int i = 0; i < sizes.length; i++) {
                int n = sizes[i];
                SimulationConfig config = SimulationConfig.fixed(n, structure, NONBLOCKING_MAX_OUT_DEGREE,
                        EMIT_NANOS, QUEUE_CAPACITY, options.rate(), duration, options.seed());
                SimulationResult r = MulticastSimulator.run(config);
                MulticastTree tree = structure.builder(NONBLOCKING_MAX_OUT_DEGREE).build(n);
                Point p = new Point(n, structure.configName(), tree.sourceOutDegree(), tree.completionSteps(),
                        tree.completionSteps() * EMIT_NANOS / 1e3, r.meanLatencyMicros(), r.p99LatencyMicros(),
                        r.throughput(), r.droppedAtSource(), r.droppedAtSource() > 0);
                points.add(p);
                x[i] = n;
                y[i] = p.meanLatencyMicros();
                System.out.printf(Locale.ROOT, "fig21 n=%3d %-11s d0=%3d steps=%3d mean=%10.1f µs p99=%10.1f µs "
                                + "throughput=%8.0f/s dropped=%d%n", n, structure.configName(),
                        p.sourceOutDegree(), p.completionSteps(), p.meanLatencyMicros(), p.p99LatencyMicros(),
                        p.throughput(), p.droppedAtSource());
            }
            Charts.points(chart, structure == MulticastStructure.NONBLOCKING
                    ? "non-blocking (d* = " + NONBLOCKING_MAX_OUT_DEGREE + ")" : structure.configName(), x, y);
        }
        int largest = sizes[sizes.length - 1];
        double nonblocking = latency(points, largest, MulticastStructure.NONBLOCKING);
        Result result = new Result(options.rate(), EMIT_NANOS, QUEUE_CAPACITY, NONBLOCKING_MAX_OUT_DEGREE,
                duration * 1e-9, options.seed(), points, largest,
                100 * (1 - nonblocking / latency(points, largest, MulticastStructure.BINOMIAL)),
                100 * (1 - nonblocking / latency(points, largest, MulticastStructure.SEQUENTIAL)),
                PAPER_REDUCTION_VS_BINOMIAL, PAPER_REDUCTION_VS_SEQUENTIAL);
        System.out.printf(Locale.ROOT, "fig21 at n=%d: non-blocking latency %.1f%% below binomial (paper %.1f%%), "
                        + "%.1f%% below sequential (paper %.1f%%)%n", largest, result.reductionVsBinomialPercent(),
                PAPER_REDUCTION_VS_BINOMIAL, result.reductionVsSequentialPercent(), PAPER_REDUCTION_VS_SEQUENTIAL);
        Scenarios.writeJson(options.out().resolve("fig21.json"), result);
        Charts.save(chart, options.out().resolve("fig21.png"));
        return result;
    }

    private static double latency(List<Point> points, int n, MulticastStructure structure) {
        return points.stream().filter(p -> p.destinations() == n && p.structure().equals(structure.configName()))
                .findFirst().orElseThrow().meanLatencyMicros();
    }
}
