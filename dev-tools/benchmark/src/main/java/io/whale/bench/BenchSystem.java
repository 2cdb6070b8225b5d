package io.whale.bench;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a run measures, for both drivers ({@code bench-woc.sh --systems}, {@code bench-paper.sh --systems}): stock
 * Apache Storm 2.8.3 (its own jars, from the stock home that {@code dev-tools/stock-storm} assembles), or Whale with
 * worker-oriented communication off or on, with or without its frame window and ack combining, along the sequential
 * structure or a relay tree, over Netty or over the RDMA transport.
 *
 * <p>A system names its transport or leaves it to the run: {@code bench-woc.sh --transports} crosses the systems
 * that leave it with each transport given, and {@code bench-paper.sh} runs them over Netty. Stock Storm has only
 * Netty.
 */
public enum BenchSystem {
    STORM("storm", "Storm", "netty"),
    WOC_OFF("whale-nowoc", "Whale, WOC off", null, "whale.woc.enabled=false"),
    WOC("whale-woc", "Whale-WOC", null, "whale.woc.enabled=true"),
    /** Without its frame window (whale.woc.window.tuples=0): the window off vs on, side by side. */
    WOC_NO_WINDOW("whale-woc-nowindow", "Whale-WOC, no frame window", null, "whale.woc.enabled=true", "whale.woc.window.tuples=0"),
    /** Its frame window fixed at whale.woc.window.tuples, not sized to the path (whale.woc.window.delay.ms=0). */
    WOC_FIXED_WINDOW("whale-woc-fixedwindow", "Whale-WOC, fixed frame window", null, "whale.woc.enabled=true",
        "whale.woc.window.delay.ms=0"),
    /** Every ack sent on its own, as Storm sends it (whale.woc.ack.combine=false): ack combining off vs on. */
    WOC_PLAIN_ACKS("whale-woc-plainacks", "Whale-WOC acks not combined", null, "whale.woc.enabled=true", "whale.woc.ack.combine=false"),
    /**
     * Acks combined only within whale.woc.ack.combine.delay.ms (whale.woc.ack.combine.wait.ms=0: the worker counts no
     * deliveries, so no combined ack leaves when its root's last local task acks): what that adds, side by side.
     */
    WOC_DELAY_ACKS("whale-woc-delayacks", "Whale-WOC acks combined by delay only", null, "whale.woc.enabled=true",
        "whale.woc.ack.combine.wait.ms=0"),
    /** Without acking even when the run acks ({@code bench-woc.sh --acking}): what at-least-once costs, side by side. */
    WOC_AT_MOST_ONCE("whale-woc-atmostonce", "Whale-WOC at-most-once", null, "whale.woc.enabled=true"),
    /** Along a binomial relay tree over the destination workers (RDMC's). */
    WOC_BINOMIAL("whale-woc-binomial", "Whale-WOC binomial", null, "whale.woc.enabled=true", "whale.multicast.structure=binomial"),
    /** Along Algorithm 1's tree with every out-degree at most 2. */
    WOC_NONBLOCK_D2("whale-woc-nonblock-d2", "Whale-WOC-Nonblock d*=2", null, "whale.woc.enabled=true",
        "whale.multicast.structure=nonblocking", "whale.multicast.max.outdegree=2"),
    /** Along Algorithm 1's tree reshaped live by the controller (d* auto). */
    WOC_NONBLOCK("whale-woc-nonblock", "Whale-WOC-Nonblock", null, "whale.woc.enabled=true", "whale.multicast.structure=nonblocking",
        "whale.multicast.max.outdegree=auto"),
    /** The live tree with its frame windows fixed: the sized window's part in its reaction. */
    WOC_NONBLOCK_FIXED_WINDOW("whale-woc-nonblock-fixedwindow", "Whale-WOC-Nonblock, fixed frame window", null,
        "whale.woc.enabled=true", "whale.multicast.structure=nonblocking", "whale.multicast.max.outdegree=auto",
        "whale.woc.window.delay.ms=0"),
    /** Over the RDMA transport (UCX), the sequential structure of the paper's Figs. 17–24. */
    WOC_RDMA("whale-woc-rdma", "Whale-WOC-RDMA", "rdma", "whale.woc.enabled=true"),
    /** Its progress threads polling when idle (whale.rdma.progress.wait=false): waiting for UCX's events off vs on. */
    WOC_RDMA_POLLING("whale-woc-rdma-polling", "Whale-WOC-RDMA, progress polled", "rdma", "whale.woc.enabled=true",
        "whale.rdma.progress.wait=false"),
    WOC_RDMA_BINOMIAL("whale-woc-rdma-binomial", "Whale-WOC-RDMA binomial", "rdma", "whale.woc.enabled=true",
        "whale.multicast.structure=binomial"),
    /** Algorithm 1's tree held at d* = 1 (a chain): where the tree cannot take the binomial's shape. */
    WOC_RDMA_NONBLOCK_D1("whale-woc-rdma-nonblock-d1", "Whale-WOC-RDMA-Nonblock d*=1", "rdma", "whale.woc.enabled=true",
        "whale.multicast.structure=nonblocking", "whale.multicast.max.outdegree=1"),
    WOC_RDMA_NONBLOCK_D2("whale-woc-rdma-nonblock-d2", "Whale-WOC-RDMA-Nonblock d*=2", "rdma", "whale.woc.enabled=true",
        "whale.multicast.structure=nonblocking", "whale.multicast.max.outdegree=2"),
    WOC_RDMA_NONBLOCK("whale-woc-rdma-nonblock", "Whale-WOC-RDMA-Nonblock", "rdma", "whale.woc.enabled=true",
        "whale.multicast.structure=nonblocking", "whale.multicast.max.outdegree=auto");

    /** Storm's own transport, what a Whale system that names none runs over unless told otherwise. */
    public static final String DEFAULT_TRANSPORT = "netty";

    private final String option;
    private final String label;
    private final String transport;
    private final List<String> settings;

    BenchSystem(String option, String label, String transport, String... settings) {
        this.option = option;
        this.label = label;
        this.transport = transport;
        this.settings = List.of(settings);
    }

    /** The name on the command line ({@code --systems storm,whale-woc,…}), in run names and in results. */
    public String option() {
        return option;
    }

    public String label() {
        return label;
    }

    /** The {@code -c} settings that select it (none on stock Storm, which knows no whale.* key), its transport aside. */
    public List<String> overrides() {
        return settings.stream().flatMap(s -> List.of("-c", s).stream()).toList();
    }

    /** Whether it runs over {@code transport}: its own, or any when it names none. */
    public boolean runsOver(String transport) {
        return this.transport == null || this.transport.equals(transport);
    }

    /** Its transport, or {@code fallback} when it names none. */
    public String transportOr(String fallback) {
        return transport == null ? fallback : transport;
    }

    public boolean whale() {
        return this != STORM;
    }

    /** Never acks, even when the run is at-least-once. */
    public boolean atMostOnce() {
        return this == WOC_AT_MOST_ONCE;
    }

    public static BenchSystem byOption(String option) {
        for (BenchSystem s : values()) {
            if (s.option.equals(option)) {
                return s;
            }
        }
        throw new IllegalArgumentException("--systems takes " + options() + ", not '" + option + "'");
    }

    /** Every system's name, comma-separated, for usage lines and errors. */
    public static String options() {
        return Arrays.stream(values()).map(BenchSystem::option).collect(Collectors.joining(", "));
    }
}
