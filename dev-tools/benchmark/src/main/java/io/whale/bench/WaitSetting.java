package io.whale.bench;

import java.util.List;

/**
 * How idle bolt executors wait, a dimension of the sweep ({@code --waits}): Storm's default progressive wait
 * (up to 1000 {@code parkNanos(1)} calls before sleeping, which on two cores takes CPU from busy threads), a fixed
 * 100 µs park ({@code WaitStrategyPark}), the progressive wait without its park level, or (Whale only) Whale's
 * wake-on-publish wait ({@code whale.bolt.wait}), which stock Storm does not have.
 */
enum WaitSetting {
    DEFAULT("default", List.of()),
    PARK_100US("park100", List.of("-c", "topology.bolt.wait.strategy=org.apache.storm.policy.WaitStrategyPark",
        "-c", "topology.bolt.wait.park.microsec=100")),
    NO_PARK_LEVEL("level2-0", List.of("-c", "topology.bolt.wait.progressive.level2.count=0")),
    WAKE_ON_PUBLISH("wake", List.of("-c", "whale.bolt.wait=wake-on-publish"));

    private final String option;
    private final List<String> overrides;

    WaitSetting(String option, List<String> overrides) {
        this.option = option;
        this.overrides = overrides;
    }

    /** Whether stock Storm can run with it (it cannot with Whale's own wait). */
    boolean stormHasIt() {
        return this != WAKE_ON_PUBLISH;
    }

    String option() {
        return option;
    }

    List<String> overrides() {
        return overrides;
    }

    static WaitSetting byOption(String option) {
        for (WaitSetting w : values()) {
            if (w.option.equals(option)) {
                return w;
            }
        }
        throw new IllegalArgumentException("--waits takes default, park100, level2-0 and/or wake, not '" + option + "'");
    }
}
