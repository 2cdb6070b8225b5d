package io.whale.multicast.sim;

import io.whale.multicast.BinomialTreeBuilder;
import io.whale.multicast.MD1Queue;
import io.whale.multicast.MulticastCapability;
import io.whale.multicast.MulticastStructure;
import io.whale.multicast.MulticastTree;
import io.whale.multicast.NonBlockingTreeBuilder;
import io.whale.multicast.OutDegreeBound;
import org.knowm.xchart.XYChart;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Numeric checks of Theorem 1 (M ∝ 1/d0: a source fed exactly M has mean queue length Q, whatever d0) and
 * Theorem 2 (L(t) grows with d0), plus the Eq. 3 erratum in numbers.
 */
final class TheoremsScenario {
    static final int DESTINATIONS = 480;
    static final long EMIT_NANOS = 4_000;
    /** A small Q makes the M/D/1 simulation at ρ = M/μ converge quickly. */
    static final int CHECK_CAPACITY = 8;

    private TheoremsScenario() {
    }

    /**
     * @param measuredQueueAtM      mean number in system of an M/D/1 simulation fed exactly M (Little's law)
     * @param measuredQueueAbove    the same fed 5% above M
     */
    record Theorem1Row(int d0, double maxAffordableRate, double rateTimesD0, double measuredQueueAtM,
                       double measuredQueueAbove) {
    }

    /** @param matchesTree L(t) equals the number of nodes with layer ≤ t in the tree Algorithm 1 builds */
    record Theorem2Row(int d0, int stepsToReachAll, long[] holders, boolean matchesTree,
                       double simulatedLoneTupleLatencyMicros) {
    }

    record Erratum(double lambda, double emitNanos, int queueCapacity, double stableRootBound,
                   int maxOutDegree, double meanQueueAtMaxOutDegree, double printedEquation3Bound,
                   double loadAtPrintedBound) {
    }

    record Result(int destinations, long emitNanos, int capacity, long tuplesPerCheck, List<Theorem1Row> theorem1,
                  boolean theorem1Holds, List<Theorem2Row> theorem2, boolean theorem2Holds, Erratum erratum) {
    }

    static Result run(ScenarioOptions options) {
        long tuples = options.quick() ? 400_000 : 4_000_000;
        int maxDegree = BinomialTreeBuilder.sourceOutDegree(DESTINATIONS);
        double te = EMIT_NANOS * 1e-9;

        List<Theorem1Row> t1 = new ArrayList<>();
        boolean t1Holds = true;
        double reference = OutDegreeBound.maxAffordableRate(1, te, CHECK_CAPACITY);
        for (int d0 = 1; d0 <= maxDegree; d0++) {
            double m = OutDegreeBound.maxAffordableRate(d0, te, CHECK_CAPACITY);
            double service = d0 * te;
            Theorem1Row row = new Theorem1Row(d0, m, m * d0,
                    meanInSystem(m, service, tuples, options.seed() + d0),
                    meanInSystem(1.05 * m, service, tuples, options.seed() + d0));
            t1.add(row);
            t1Holds &= Math.abs(row.rateTimesD0() - reference) <= 1e-9 * reference
                    && Math.abs(row.measuredQueueAtM() - CHECK_CAPACITY) <= 0.15 * CHECK_CAPACITY
                    && row.measuredQueueAbove() > CHECK_CAPACITY;
            System.out.printf(Locale.ROOT, "theorem1 d0=%d M=%9.0f/s M*d0=%9.0f  mean queue at M=%6.2f (Q=%d), "
                    + "at 1.05M=%6.2f%n", d0, m, m * d0, row.measuredQueueAtM(), CHECK_CAPACITY,
                    row.measuredQueueAbove());
        }

        List<Theorem2Row> t2 = new ArrayList<>();
        boolean t2Holds = true;
        int horizon = MulticastCapability.stepsToReachAll(DESTINATIONS, 1);
        for (int d0 = 1; d0 <= maxDegree; d0++) {
            long[] holders = MulticastCapability.holders(DESTINATIONS, d0, horizon);
            MulticastTree tree = new NonBlockingTreeBuilder(d0).build(DESTINATIONS);
            SimulationResult lone = MulticastSimulator.run(SimulationConfig.fixed(DESTINATIONS,
                    MulticastStructure.NONBLOCKING, d0, EMIT_NANOS, 1024, 20.0, 1_000_000_000L, options.seed()));
            Theorem2Row row = new Theorem2Row(d0, MulticastCapability.stepsToReachAll(DESTINATIONS, d0), holders,
                    matches(tree, holders), lone.delivered() > 0 ? lone.meanLatencyMicros() : Double.NaN);
            if (!t2.isEmpty()) {
                long[] previous = t2.get(t2.size() - 1).holders();
                for (int t = 0; t <= horizon; t++) {
                    t2Holds &= holders[t] >= previous[t];
                }
                t2Holds &= row.stepsToReachAll() <= t2.get(t2.size() - 1).stepsToReachAll();
            }
            t2Holds &= row.matchesTree() && row.stepsToReachAll() == tree.completionSteps();
            t2.add(row);
            System.out.printf(Locale.ROOT, "theorem2 d0=%d steps to reach all %d nodes: %3d, recursion matches tree: "
                            + "%s, lone-tuple latency %.0f µs%n", d0, DESTINATIONS, row.stepsToReachAll(),
                    row.matchesTree(), row.simulatedLoneTupleLatencyMicros());
        }

        double lambda = 60_000;
        int capacity = 1024;
        int dStar = OutDegreeBound.maxOutDegree(lambda, te, capacity, DESTINATIONS);
        double printed = OutDegreeBound.printedEquation3(lambda, te, capacity);
        Erratum erratum = new Erratum(lambda, EMIT_NANOS, capacity,
                MD1Queue.maxStableLoad(capacity) / (lambda * te), dStar,
                MD1Queue.meanQueueLength(lambda, MD1Queue.serviceRate(dStar, te)), printed, lambda * printed * te);
        System.out.printf(Locale.ROOT, "erratum λ=%.0f t_e=%d ns Q=%d: stable bound %.3f -> d*=%d (E(L)=%.1f); "
                        + "printed Eq. 3 %.3f means ρ=%.3f%n", lambda, EMIT_NANOS, capacity,
                erratum.stableRootBound(), dStar, erratum.meanQueueAtMaxOutDegree(), printed,
                erratum.loadAtPrintedBound());
        System.out.println("theorem1 holds: " + t1Holds + ", theorem2 holds: " + t2Holds);

        Result result = new Result(DESTINATIONS, EMIT_NANOS, CHECK_CAPACITY, tuples, t1, t1Holds, t2, t2Holds,
                erratum);
        Scenarios.writeJson(options.out().resolve("theorems.json"), result);
        charts(options, t1, t2, horizon);
        return result;
    }

    /** Mean number in an M/D/1 system (Little: λ · mean sojourn), from the Lindley recursion. */
    static double meanInSystem(double lambda, double serviceSeconds, long tuples, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double wait = 0;
        double sojourn = 0;
        // Skip a warm-up tenth so the empty start does not bias the mean.
        long warmUp = tuples / 10;
        for (long i = 0; i < tuples + warmUp; i++) {
            double gap = -Math.log(1 - random.nextDouble()) / lambda;
            wait = Math.max(0, wait + serviceSeconds - gap);
            if (i >= warmUp) {
                sojourn += wait + serviceSeconds;
            }
        }
        return lambda * sojourn / tuples;
    }

    private static boolean matches(MulticastTree tree, long[] holders) {
        int[] perLayer = new int[tree.completionSteps() + 1];
        for (int v = 0; v < tree.nodeCount(); v++) {
            perLayer[tree.layer(v)]++;
        }
        long cumulative = 0;
        for (int t = 0; t < holders.length; t++) {
            cumulative += t < perLayer.length ? perLayer[t] : 0;
            if (cumulative != holders[t]) {
                return false;
            }
        }
        return true;
    }

    private static void charts(ScenarioOptions options, List<Theorem1Row> t1, List<Theorem2Row> t2, int horizon) {
        XYChart m = Charts.chart(String.format(Locale.ROOT,
                "Theorem 1: maximum affordable rate M = (Q+1-√(Q²+1))/(d0·t_e), Q = %d, t_e = %d µs",
                CHECK_CAPACITY, EMIT_NANOS / 1000), "source out-degree d0", "tuples/s");
        double[] d = t1.stream().mapToDouble(Theorem1Row::d0).toArray();
        Charts.points(m, "M (Eq. 5)", d, t1.stream().mapToDouble(Theorem1Row::maxAffordableRate).toArray());
        Charts.line(m, "M(1)/d0", d, t1.stream().mapToDouble(r -> t1.get(0).maxAffordableRate() / r.d0()).toArray());
        Charts.save(m, options.out().resolve("theorem1.png"));

        XYChart queue = Charts.chart("Theorem 1 by simulation: M/D/1 source fed λ = M(d0) and 1.05·M(d0)",
                "source out-degree d0", "mean tuples in system (Little's law)");
        Charts.points(queue, "λ = M", d, t1.stream().mapToDouble(Theorem1Row::measuredQueueAtM).toArray());
        Charts.points(queue, "λ = 1.05·M", d, t1.stream().mapToDouble(Theorem1Row::measuredQueueAbove).toArray());
        Charts.line(queue, "Q = " + CHECK_CAPACITY, new double[] {1, d.length},
                new double[] {CHECK_CAPACITY, CHECK_CAPACITY});
        Charts.save(queue, options.out().resolve("theorem1-queue.png"));

        XYChart l = Charts.chart("Theorem 2: multicast capability L(t), n = " + DESTINATIONS,
                "time unit t", "nodes holding the tuple (log scale)");
        l.getStyler().setYAxisLogarithmic(true);
        int shown = Math.min(horizon, t2.get(Math.min(1, t2.size() - 1)).stepsToReachAll() + 2);
        double[] t = new double[shown + 1];
        for (int i = 0; i <= shown; i++) {
            t[i] = i;
        }
        for (Theorem2Row row : t2) {
            double[] y = new double[shown + 1];
            for (int i = 0; i <= shown; i++) {
                y[i] = row.holders()[i];
            }
            Charts.line(l, "d0 = " + row.d0(), t, y);
        }
        Charts.save(l, options.out().resolve("theorem2.png"));
    }
}
