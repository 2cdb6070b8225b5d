package io.whale.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * One run of the topology: P matchers over W workers on one {@link BenchSystem}, over one messaging transport
 * ({@code whale.transport}), with one idle-wait setting, at an offered rate (Poisson, tuples per second; 0: as
 * fast as backpressure allows), repeat number {@code repeat} (from 1). W = 1 is the one-worker ceiling (Whale,
 * WOC on). Names and labels mention only the dimensions the sweep varies ({@link Dimensions}); the label leaves
 * out the repeat, so repeats of a point share a series and a summary row. {@code ackingPending} above 0: at-least-once (one
 * acker per worker, that many tuple trees pending at most) unless the system is at-most-once.
 */
record BenchPoint(int matchers, int workers, BenchSystem system, String transport, WaitSetting waitSetting, double ratePerSecond,
                  int repeat, List<String> settings, int ackingPending, Dimensions shown) {

    /** Which dimensions differ between the sweep's points, and so appear in names and labels. */
    record Dimensions(boolean transport, boolean waitSetting, boolean repeat) {
    }

    /** The same point at another offered rate (a probe of the sustainable-rate search). */
    BenchPoint atRate(double rate) {
        return new BenchPoint(matchers, workers, system, transport, waitSetting, rate, repeat, settings, ackingPending, shown);
    }

    boolean ceiling() {
        return workers == 1;
    }

    String name() {
        return "bench-p" + matchers + "-w" + workers + (ceiling() ? "" : "-" + system.option())
            + (shown.transport() ? "-" + transport : "") + (shown.waitSetting() ? "-" + waitSetting.option() : "")
            + (ratePerSecond > 0 ? "-r" + Math.round(ratePerSecond) : "") + (shown.repeat() ? "-" + repeat : "");
    }

    String label() {
        return (ceiling() ? "W=1 ceiling" : "W=" + workers + " " + system.label()) + (shown.transport() ? " " + transport : "")
            + (shown.waitSetting() ? " wait " + waitSetting.option() : "");
    }

    /**
     * The {@code -c} settings of this run: the system's switch, the transport on Whale, the wait, the offered rate,
     * acking, then the {@code --set} settings every point shares.
     */
    List<String> overrides() {
        List<String> args = new ArrayList<>(system.overrides());
        if (system.whale()) {
            args.addAll(List.of("-c", "whale.transport=" + transport));
        }
        args.addAll(waitSetting.overrides());
        if (ratePerSecond > 0) {
            args.addAll(List.of("-c", OrderSpout.RATE_KEY + "=" + ratePerSecond));
        }
        if (ackingPending > 0 && !system.atMostOnce()) {
            args.addAll(List.of("-c", "topology.acker.executors=" + workers, "-c", "topology.max.spout.pending=" + ackingPending));
        }
        settings.forEach(setting -> args.addAll(List.of("-c", setting)));
        return args;
    }

    /**
     * For each P and wait setting, {@code repeats} rounds of: every W with, for each transport, each system that runs
     * over it (stock Storm over Netty only, and not with Whale's own wait; a {@code whale-woc-rdma…} system over RDMA
     * only), then the ceiling over the first transport. The runs compared are so close in time on a shared machine, and
     * repeats interleave instead of running back to back.
     */
    static List<BenchPoint> sweep(BenchOptions o) {
        Dimensions shown = new Dimensions(!o.transports().equals(List.of(BenchSystem.DEFAULT_TRANSPORT)), o.waits().size() > 1,
            o.repeats() > 1);
        List<BenchPoint> points = new ArrayList<>();
        for (int p : o.matchers()) {
            for (WaitSetting wait : o.waits()) {
                for (int r = 1; r <= o.repeats(); r++) {
                    for (int w : o.workers()) {
                        for (String t : o.transports()) {
                            for (BenchSystem s : o.systems()) {
                                if (s.runsOver(t)) {
                                    points.add(new BenchPoint(p, w, s, t, wait, o.ratePerSecond(), r, o.settings(), o.ackingPending(), shown));
                                }
                            }
                        }
                    }
                    if (o.ceiling()) {
                        points.add(new BenchPoint(p, 1, BenchSystem.WOC, o.transports().get(0), wait, o.ratePerSecond(), r, o.settings(),
                            o.ackingPending(), shown));
                    }
                }
            }
        }
        return points;
    }
}
