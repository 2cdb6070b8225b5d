package io.whale.bench.paper;

import io.whale.bench.BenchSystem;
import java.util.List;
import java.util.Optional;

/**
 * Figs. 11–12: Whale's stream slicing swept, one topology key at a time, on the system of the figures at the highest P,
 * each repeat right after its round (at the round's common rate, as the round's own runs are): Max Memory Size of a work
 * request ({@code whale.rdma.mms.bytes}, the paper's 512 B .. 1,024 KB) and Wait Time Limit ({@code whale.rdma.wtl.ms},
 * 1 .. 30 ms). The value Whale ships ({@code conf/storm.yaml}) is not run again: it is the round's run of that system.
 * The quick run, a smoke of at most 15 minutes, adds one run: WTL 10 ms (its MMS figure has the shipped point alone).
 */
enum PaperSweep {
    MMS(PaperFigure.F11, "whale.rdma.mms.bytes", "Max Memory Size (MMS)", "bytes", 262_144,
        List.of(512L, 4_096L, 65_536L, 262_144L, 1_048_576L), List.of(262_144L),
        "throughput increases gradually with MMS; latency increases slightly below 256 KB and significantly above; Whale "
            + "sets 256 KB"),
    WTL(PaperFigure.F12, "whale.rdma.wtl.ms", "Wait Time Limit (WTL)", "ms", 1,
        List.of(1L, 5L, 10L, 30L), List.of(1L, 10L),
        "throughput decreases slightly as WTL increases while latency increases significantly; Whale sets 1 ms");

    private final PaperFigure figure;
    private final String key;
    private final String label;
    private final String unit;
    private final long shipped;
    private final List<Long> full;
    private final List<Long> quick;
    private final String paper;

    PaperSweep(PaperFigure figure, String key, String label, String unit, long shipped, List<Long> full, List<Long> quick,
               String paper) {
        this.figure = figure;
        this.key = key;
        this.label = label;
        this.unit = unit;
        this.shipped = shipped;
        this.full = full;
        this.quick = quick;
        this.paper = paper;
    }

    String key() {
        return key;
    }

    /** The x axis: "Max Memory Size (MMS), bytes". */
    String axis() {
        return label + ", " + unit;
    }

    String unit() {
        return unit;
    }

    /** What the paper found (no ratio to compare with: its figures are curves). */
    String paper() {
        return paper;
    }

    /** The value Whale ships, which the round's run of the figure's system has. */
    long shipped() {
        return shipped;
    }

    /** The values plotted, the shipped one among them. */
    List<Long> values(boolean quickRun) {
        return quickRun ? quick : full;
    }

    /** The {@code -c} setting of a run at {@code value}. */
    String setting(long value) {
        return key + "=" + value;
    }

    /** The suffix of a run's topology name: "-mms4096". */
    String suffix(long value) {
        return "-" + name().toLowerCase() + value;
    }

    /** The system swept: Whale as the paper evaluates it. */
    BenchSystem system() {
        return figure.systems().get(0);
    }

    static Optional<PaperSweep> of(PaperFigure figure) {
        for (PaperSweep s : values()) {
            if (s.figure == figure) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
