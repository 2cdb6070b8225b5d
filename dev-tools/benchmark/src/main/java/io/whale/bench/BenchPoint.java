package io.whale.bench;

import java.util.ArrayList;
import java.util.List;

/** One run of the topology: P matchers over W workers, WOC on or off; W = 1 is the one-worker ceiling. */
record BenchPoint(int matchers, int workers, boolean woc) {
    boolean ceiling() {
        return workers == 1;
    }

    String name() {
        return "bench-p" + matchers + "-w" + workers + (ceiling() ? "" : woc ? "-woc" : "-stock");
    }

    String label() {
        return ceiling() ? "W=1 ceiling" : "W=" + workers + (woc ? " WOC on" : " WOC off");
    }

    /**
     * For each P in turn: every W with WOC off then on, then the ceiling, so the runs compared are close in
     * time on a shared machine. The ceiling runs with WOC on, Whale's default (one worker sends nothing remote).
     */
    static List<BenchPoint> sweep(List<Integer> matchers, List<Integer> workers) {
        List<BenchPoint> points = new ArrayList<>();
        for (int p : matchers) {
            for (int w : workers) {
                points.add(new BenchPoint(p, w, false));
                points.add(new BenchPoint(p, w, true));
            }
            points.add(new BenchPoint(p, 1, true));
        }
        return points;
    }
}
