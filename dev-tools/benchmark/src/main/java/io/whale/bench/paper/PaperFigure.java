package io.whale.bench.paper;

import io.whale.bench.BenchSystem;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The figures of the paper's §5 the benchmark reproduces: the application, what is plotted against the matchers'
 * parallelism P, the systems compared, and the paper's own ratios at P = 480 on its 30 machines (§5.2), which are what
 * carries over to a scaled-down run. A comparison is {@code system} against {@code baseline}: for throughput the ratio
 * system/baseline, for latency and traffic the reduction 1 − system/baseline in percent.
 */
enum PaperFigure {
    /** Paper: no ratio (curves); swept by {@link PaperSweep#MMS}, throughput and latency in one figure. */
    F11(11, PaperApp.RIDEHAILING, Metric.THROUGHPUT, Group.SLICING, "System performance with different MMS", List.of()),
    /** Paper: no ratio (curves); swept by {@link PaperSweep#WTL}. */
    F12(12, PaperApp.RIDEHAILING, Metric.THROUGHPUT, Group.SLICING, "System performance with different WTL", List.of()),
    F13(13, PaperApp.RIDEHAILING, Metric.THROUGHPUT, Group.OVERALL, "Overall system throughput on orders generated in the Didi format",
        List.of(new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.STORM, 56.6))),
    F14(14, PaperApp.RIDEHAILING, Metric.LATENCY, Group.OVERALL, "Overall system latency on orders generated in the Didi format",
        List.of(new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.STORM, 96.6))),
    F15(15, PaperApp.STOCK, Metric.THROUGHPUT, Group.OVERALL, "Overall system throughput on orders generated in the NASDAQ format",
        List.of(new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.STORM, 51.2))),
    F16(16, PaperApp.STOCK, Metric.LATENCY, Group.OVERALL, "Overall system latency on orders generated in the NASDAQ format",
        List.of(new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.STORM, 96.5))),
    F17(17, PaperApp.RIDEHAILING, Metric.THROUGHPUT, Group.TREES, "Throughput comparison using orders generated in the Didi format",
        List.of(new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.WOC_RDMA_BINOMIAL, 1.2),
            new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.WOC_RDMA, 1.4))),
    F18(18, PaperApp.RIDEHAILING, Metric.LATENCY, Group.TREES, "Latency comparison using orders generated in the Didi format",
        List.of(new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.WOC_RDMA_BINOMIAL, 26.9),
            new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.WOC_RDMA, 38.8))),
    F19(19, PaperApp.STOCK, Metric.THROUGHPUT, Group.TREES, "Throughput comparison using orders generated in the NASDAQ format",
        List.of(new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.WOC_RDMA_BINOMIAL, 1.22),
            new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.WOC_RDMA, 1.4))),
    F20(20, PaperApp.STOCK, Metric.LATENCY, Group.TREES, "Latency comparison using orders generated in the NASDAQ format",
        List.of(new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.WOC_RDMA_BINOMIAL, 23.4),
            new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.WOC_RDMA, 32.6))),
    F21(21, PaperApp.RIDEHAILING, Metric.MULTICAST_LATENCY, Group.TREES, "Average multicast latency using orders generated in the Didi format",
        List.of(new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.WOC_RDMA_BINOMIAL, 54.4),
            new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.WOC_RDMA, 57.8))),
    F22(22, PaperApp.STOCK, Metric.MULTICAST_LATENCY, Group.TREES, "Average multicast latency using orders generated in the NASDAQ format",
        List.of(new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.WOC_RDMA_BINOMIAL, 50.6),
            new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.WOC_RDMA, 56.6))),
    /** Paper: at 100k tuples/s the non-blocking tree carries 33 % more than the sequential multicast. */
    F23(23, PaperApp.RIDEHAILING, Metric.THROUGHPUT, Group.STEPS, "Throughput variation as stream rate changes",
        List.of(new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.WOC_RDMA, 1.33))),
    /** Paper: no ratio; the non-blocking tree's latency recovers within 30 ms of a step. */
    F24(24, PaperApp.RIDEHAILING, Metric.LATENCY, Group.STEPS, "Latency variation as stream rate changes", List.of()),
    /** Paper: at P = 480 Whale spends 96 % less communication time at the source than Storm. */
    F25(25, PaperApp.RIDEHAILING, Metric.SEND_TIME, Group.OVERALL, "Communication time on different parallelism",
        List.of(new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.STORM, 96))),
    /** Paper: serialization is 45 % of Storm's communication time and 15 % of Whale's (absolute shares, no ratio). */
    F26(26, PaperApp.RIDEHAILING, Metric.SERIALIZATION_SHARE, Group.OVERALL, "The ratio of serialization time", List.of()),
    F27(27, PaperApp.RIDEHAILING, Metric.TRAFFIC, Group.OVERALL, "Communication traffic using orders generated in the Didi format",
        List.of(new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.STORM, 91.9))),
    F28(28, PaperApp.STOCK, Metric.TRAFFIC, Group.OVERALL, "Communication traffic using orders generated in the NASDAQ format",
        List.of(new Comparison(BenchSystem.WOC_RDMA_NONBLOCK, BenchSystem.STORM, 90.0)));

    enum Metric {
        /** The sustainable rate: records per second consumed at the highest Poisson rate that kept up. */
        THROUGHPUT("throughput", "records/s", "%.0f", null, PaperResult::throughputPerSecond),
        /** Mean processing latency (source emit → sink) at the common rate. */
        LATENCY("processing latency", "ms", "%.1f", "lower latency",
            r -> r.common() == null ? Double.NaN : r.common().meanMillis()),
        /**
         * Mean multicast latency at the common rate: a broadcast emit at the source until its last destination worker
         * has it, as the source sees it (its frames' credit back, {@link MulticastCounters}).
         */
        MULTICAST_LATENCY("multicast latency", "ms", "%.1f", "lower multicast latency",
            r -> r.common() == null ? Double.NaN : r.common().multicastMillis()),
        /**
         * What the broadcast source's host sent over its link per 10,000 records, over the capacity window: the paper's
         * "bytes that the source instance transmits … when it generates 10,000 tuples", here everything that host sends
         * (the broadcast and, from the tasks beside the source, acks and answers).
         */
        TRAFFIC("communication traffic", "bytes per 10,000 records", "%.0f", "less traffic", PaperResult::sourceBytesPer10kRecords),
        /**
         * The paper's "communication time" at the source per tuple: the CPU the broadcast source's workers spent on the
         * send path per record, over the capacity window ({@link SendPathSamples}: Java frames, sampled).
         */
        SEND_TIME("communication time at the source", "µs of CPU per record", "%.1f", "less communication time",
            PaperResult::sourceSendMicrosPerRecord),
        /** Serialization's share of that send path. */
        SERIALIZATION_SHARE("serialization's share of the communication time", "%", "%.0f", "less serialization",
            PaperResult::sourceSerializationPercent);

        final String label;
        final String unit;
        /** How a value is printed. */
        final String format;
        /** What a comparison states: null for a ratio (×, higher is better), else the reduction in percent, as "% {reduction}". */
        private final String reduction;
        private final ToDoubleFunction<PaperResult> ofRun;

        /** Whether it is measured in the common phase (at 0.9 × Storm's rate), which can fall behind. */
        boolean atCommonRate() {
            return this == LATENCY || this == MULTICAST_LATENCY;
        }

        Metric(String label, String unit, String format, String reduction, ToDoubleFunction<PaperResult> ofRun) {
            this.label = label;
            this.unit = unit;
            this.format = format;
            this.reduction = reduction;
            this.ofRun = ofRun;
        }

        /** The run's value (NaN when it was not measured). */
        double of(PaperResult run) {
            return ofRun.applyAsDouble(run);
        }

        /** {@code system} against {@code baseline}: the ratio, or the reduction 100 × (1 − system/baseline). */
        double compare(double system, double baseline) {
            return reduction == null ? system / baseline : 100 * (1 - system / baseline);
        }

        /** The comparison's unit as the report writes it after the number: "×" or " % lower latency". */
        String comparisonUnit() {
            return reduction == null ? "×" : " % " + reduction;
        }

        String comparisonFormat() {
            return reduction == null ? "%.2f" : "%.0f";
        }
    }

    /**
     * Figs. 11–12 sweep Whale's stream slicing; Figs. 13–16 compare the systems; Figs. 17–20 the multicast structures,
     * all on Whale-WOC-RDMA; Figs. 23–24 the sequential and the non-blocking structure over time as the offered rate steps.
     */
    enum Group {
        SLICING(List.of(BenchSystem.WOC_RDMA_NONBLOCK)),
        OVERALL(List.of(BenchSystem.STORM, BenchSystem.WOC, BenchSystem.WOC_PLAIN_ACKS, BenchSystem.WOC_RDMA, BenchSystem.WOC_RDMA_POLLING,
            BenchSystem.WOC_RDMA_NONBLOCK)),
        TREES(List.of(BenchSystem.WOC_RDMA, BenchSystem.WOC_RDMA_BINOMIAL, BenchSystem.WOC_RDMA_NONBLOCK_D1, BenchSystem.WOC_RDMA_NONBLOCK_D2,
            BenchSystem.WOC_RDMA_NONBLOCK)),
        STEPS(List.of(BenchSystem.WOC_RDMA, BenchSystem.WOC_RDMA_NONBLOCK));

        final List<BenchSystem> systems;

        Group(List<BenchSystem> systems) {
            this.systems = systems;
        }
    }

    /** {@code system} against {@code baseline}, and the paper's figure for it at P = 480. */
    record Comparison(BenchSystem system, BenchSystem baseline, double paper) {
    }

    private final int number;
    private final PaperApp app;
    private final Metric metric;
    private final Group group;
    private final String title;
    private final List<Comparison> comparisons;

    PaperFigure(int number, PaperApp app, Metric metric, Group group, String title, List<Comparison> comparisons) {
        this.number = number;
        this.app = app;
        this.metric = metric;
        this.group = group;
        this.title = title;
        this.comparisons = comparisons;
    }

    int number() {
        return number;
    }

    PaperApp app() {
        return app;
    }

    Metric metric() {
        return metric;
    }

    String title() {
        return title;
    }

    List<BenchSystem> systems() {
        return group.systems;
    }

    List<Comparison> comparisons() {
        return comparisons;
    }

    /** Whether it is drawn from the sweep runs of {@link PaperSweep} (against a topology key), not from the rounds (against P). */
    boolean swept() {
        return group == Group.SLICING;
    }

    /** Whether it is drawn from the rate-step runs (over time), not from the rounds (against P). */
    boolean rateSteps() {
        return group == Group.STEPS;
    }

    /** How a system is named in this figure: the tree figures name the structure (all on Whale-WOC-RDMA). */
    String seriesName(BenchSystem system) {
        if (group == Group.OVERALL) {
            return system.label();
        }
        return switch (system) {
            case WOC_RDMA -> "sequential";
            case WOC_RDMA_BINOMIAL -> "binomial (RDMC)";
            case WOC_RDMA_NONBLOCK -> "non-blocking (Whale)";
            default -> system.label();
        };
    }

    static String numbers() {
        return Arrays.stream(values()).map(f -> String.valueOf(f.number)).collect(Collectors.joining(","));
    }

    static PaperFigure byNumber(String text) {
        for (PaperFigure f : values()) {
            if (String.valueOf(f.number).equals(text)) {
                return f;
            }
        }
        throw new IllegalArgumentException("--figures takes " + numbers() + ", not '" + text + "'");
    }
}
