package io.whale.bench;

import java.util.List;

/**
 * What runs a point: stock Apache Storm 2.8.3 (its own jars, from the stock home that
 * {@code dev-tools/stock-storm} assembles), or Whale with worker-oriented communication off or on (with or
 * without its frame window, along a relay tree or not).
 */
enum BenchSystem {
    STOCK("stock", "stock Storm", List.of()),
    WOC_OFF("woc-off", "WOC off", List.of("-c", "whale.woc.enabled=false")),
    WOC_ON("woc-on", "WOC on", List.of("-c", "whale.woc.enabled=true")),
    /** WOC on without its frame window (whale.woc.window.tuples=0): the window off vs on, side by side. */
    WOC_NO_WINDOW("woc-nowindow", "WOC on, no frame window", List.of("-c", "whale.woc.enabled=true", "-c", "whale.woc.window.tuples=0")),
    /** WOC on with its frame window fixed at whale.woc.window.tuples, not sized to the path (whale.woc.window.delay.ms=0). */
    WOC_FIXED_WINDOW("woc-fixedwindow", "WOC on, fixed frame window", List.of("-c", "whale.woc.enabled=true", "-c",
        "whale.woc.window.delay.ms=0")),
    /** WOC on along a binomial relay tree over the destination workers (whale.multicast.structure=binomial). */
    WOC_BINOMIAL("woc-binomial", "WOC binomial tree", List.of("-c", "whale.woc.enabled=true", "-c",
        "whale.multicast.structure=binomial")),
    /** WOC on along Algorithm 1's tree with every out-degree at most 2 (nonblocking, d* = 2). */
    WOC_NONBLOCKING("woc-nonblocking", "WOC nonblocking d*=2", List.of("-c", "whale.woc.enabled=true", "-c",
        "whale.multicast.structure=nonblocking", "-c", "whale.multicast.max.outdegree=2")),
    /** WOC on along Algorithm 1's tree reshaped live by the controller (nonblocking, d* auto). */
    WOC_AUTO("woc-auto", "WOC nonblocking d* auto", List.of("-c", "whale.woc.enabled=true", "-c",
        "whale.multicast.structure=nonblocking", "-c", "whale.multicast.max.outdegree=auto")),
    /** The live tree with its frame windows fixed (whale.woc.window.delay.ms=0): the sized window's part in its reaction. */
    WOC_AUTO_FIXED_WINDOW("woc-auto-fixedwindow", "WOC nonblocking d* auto, fixed frame window", List.of("-c",
        "whale.woc.enabled=true", "-c", "whale.multicast.structure=nonblocking", "-c", "whale.multicast.max.outdegree=auto",
        "-c", "whale.woc.window.delay.ms=0")),
    /** WOC on with every ack sent on its own, as Storm sends it (whale.woc.ack.combine=false): ack combining off vs on. */
    WOC_PLAIN_ACKS("woc-plainacks", "WOC on, acks not combined", List.of("-c", "whale.woc.enabled=true", "-c",
        "whale.woc.ack.combine=false")),
    /**
     * WOC on with acks combined only within whale.woc.ack.combine.delay.ms (whale.woc.ack.combine.wait.ms=0: the worker
     * counts no deliveries, so no combined ack leaves when its root's last local task acks): what that adds, side by side.
     */
    WOC_DELAY_ACKS("woc-delayacks", "WOC on, acks combined by delay only", List.of("-c", "whale.woc.enabled=true", "-c",
        "whale.woc.ack.combine.wait.ms=0")),
    /** WOC on without acking even under --acking: what at-least-once costs, side by side. */
    WOC_AT_MOST_ONCE("woc-atmostonce", "WOC on, at-most-once", List.of("-c", "whale.woc.enabled=true"));

    private final String option;
    private final String label;
    private final List<String> overrides;

    BenchSystem(String option, String label, List<String> overrides) {
        this.option = option;
        this.label = label;
        this.overrides = overrides;
    }

    /** The name on the command line ({@code --systems stock,woc-off,woc-on,…}) and in run names. */
    String option() {
        return option;
    }

    String label() {
        return label;
    }

    /** The {@code -c} settings that select it on Whale's cluster; none on stock Storm, which knows no whale.* key. */
    List<String> overrides() {
        return overrides;
    }

    boolean whale() {
        return this != STOCK;
    }

    /** Never acks, even when the run is at-least-once ({@code --acking}). */
    boolean atMostOnce() {
        return this == WOC_AT_MOST_ONCE;
    }

    static BenchSystem byOption(String option) {
        for (BenchSystem s : values()) {
            if (s.option.equals(option)) {
                return s;
            }
        }
        throw new IllegalArgumentException("--systems takes stock, woc-off, woc-on, woc-nowindow, woc-fixedwindow, "
            + "woc-binomial, woc-nonblocking, woc-auto, woc-auto-fixedwindow, woc-plainacks, woc-delayacks and/or woc-atmostonce, not '"
            + option + "'");
    }
}
