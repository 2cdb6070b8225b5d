package io.whale.bench;

import java.util.List;

/**
 * How idle bolt executors wait, a dimension of the sweep ({@code --waits}): Storm's default progressive wait
 * (up to 1000 {@code parkNanos(1)} calls before sleeping, which on two cores takes CPU from busy threads), a fixed
 * 100 µs park ({@code WaitStrategyPark}), or the progressive wait without its park level.
 */
enum WaitSetting {
    DEFAULT("default", List.of()),
    PARK_100US("park100", List.of("-c", "topology.bolt.wait.strategy=org.apache.storm.policy.WaitStrategyPark",
        "-c", "topology.bolt.wait.park.microsec=100")),
    NO_PARK_LEVEL("level2-0", List.of("-c", "topology.bolt.wait.progressive.level2.count=0"));

    private final String option;
    private final List<String> overrides;

    WaitSetting(String option, List<String> overrides) {
        this.option = option;
        this.overrides = overrides;
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
        throw new IllegalArgumentException("--waits takes default, park100 and/or level2-0, not '" + option + "'");
    }
}
