package io.whale.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * One run of the topology: P matchers over W workers, WOC on or off, over one messaging transport
 * ({@code whale.transport}); W = 1 is the one-worker ceiling. {@code transportNamed}: the name and label say the
 * transport (when the sweep is not just Storm's default netty), so runs over different transports stay apart.
 */
record BenchPoint(int matchers, int workers, boolean woc, String transport, boolean transportNamed) {
    boolean ceiling() {
        return workers == 1;
    }

    String name() {
        return "bench-p" + matchers + "-w" + workers + (ceiling() ? "" : woc ? "-woc" : "-stock") + (transportNamed ? "-" + transport : "");
    }

    String label() {
        return (ceiling() ? "W=1 ceiling" : "W=" + workers + (woc ? " WOC on" : " WOC off")) + (transportNamed ? " " + transport : "");
    }

    /**
     * For each P in turn: every W with, for each transport, WOC off then on, then the ceiling (over the first
     * transport), so the runs compared are close in time on a shared machine. The ceiling runs with WOC on,
     * Whale's default (one worker sends nothing remote).
     */
    static List<BenchPoint> sweep(List<Integer> matchers, List<Integer> workers, List<String> transports) {
        boolean named = !transports.equals(List.of(BenchOptions.DEFAULT_TRANSPORT));
        List<BenchPoint> points = new ArrayList<>();
        for (int p : matchers) {
            for (int w : workers) {
                for (String t : transports) {
                    points.add(new BenchPoint(p, w, false, t, named));
                    points.add(new BenchPoint(p, w, true, t, named));
                }
            }
            points.add(new BenchPoint(p, 1, true, transports.get(0), named));
        }
        return points;
    }
}
