package io.whale.bench.paper;

import java.util.List;

/**
 * The systems of the paper's comparisons: stock Apache Storm 2.8.3 (its own jars, on a cluster of its own), and
 * Whale with worker-oriented communication over Netty, over the RDMA transport, and over RDMA along a relay tree
 * (Algorithm 1's non-blocking tree reshaped live, or RDMC's binomial tree for Figs. 17–20).
 *
 * <p>Idle bolts wait alike on both: Whale's shipped {@code whale.bolt.wait: sleep} is Storm's progressive wait
 * without its park level, which stock Storm gets as {@code topology.bolt.wait.progressive.level2.count=0}. Left at
 * Storm's default, its idle executors spin in {@code parkNanos} and on two cores take the CPU from the busy ones
 * (the benchmark of issue 3 measured it), which a machine of the paper's would not show.
 */
enum PaperSystem {
    STORM("storm", "Storm", List.of("-c", "topology.bolt.wait.progressive.level2.count=0")),
    WOC("whale-woc", "Whale-WOC", List.of("-c", "whale.woc.enabled=true", "-c", "whale.transport=netty")),
    /** Whale-WOC with every ack sent on its own, as Storm sends it: what ack combining adds at the application level. */
    WOC_PLAIN_ACKS("whale-woc-plainacks", "Whale-WOC acks not combined", List.of("-c", "whale.woc.enabled=true", "-c",
        "whale.transport=netty", "-c", "whale.woc.ack.combine=false")),
    WOC_RDMA("whale-woc-rdma", "Whale-WOC-RDMA", List.of("-c", "whale.woc.enabled=true", "-c", "whale.transport=rdma")),
    WOC_RDMA_BINOMIAL("whale-woc-rdma-binomial", "Whale-WOC-RDMA binomial", List.of("-c", "whale.woc.enabled=true", "-c",
        "whale.transport=rdma", "-c", "whale.multicast.structure=binomial")),
    WOC_RDMA_NONBLOCK("whale-woc-rdma-nonblock", "Whale-WOC-RDMA-Nonblock", List.of("-c", "whale.woc.enabled=true", "-c",
        "whale.transport=rdma", "-c", "whale.multicast.structure=nonblocking", "-c", "whale.multicast.max.outdegree=auto"));

    private final String option;
    private final String label;
    private final List<String> overrides;

    PaperSystem(String option, String label, List<String> overrides) {
        this.option = option;
        this.label = label;
        this.overrides = overrides;
    }

    String option() {
        return option;
    }

    String label() {
        return label;
    }

    /** The {@code -c} settings selecting it on its cluster (on stock Storm, which knows no whale.* key, the idle wait). */
    List<String> overrides() {
        return overrides;
    }

    boolean whale() {
        return this != STORM;
    }

    static PaperSystem byOption(String option) {
        for (PaperSystem s : values()) {
            if (s.option.equals(option)) {
                return s;
            }
        }
        throw new IllegalArgumentException("--systems takes storm, whale-woc, whale-woc-plainacks, whale-woc-rdma, whale-woc-rdma-binomial and/or "
            + "whale-woc-rdma-nonblock, not '" + option + "'");
    }
}
