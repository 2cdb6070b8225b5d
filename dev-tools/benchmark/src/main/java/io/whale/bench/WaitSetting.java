package io.whale.bench;

import java.util.List;

/**
 * How idle bolt executors wait, a dimension of the sweep ({@code --waits}): each system's shipped wait
 * ({@code default}: Storm's progressive wait, up to 1000 {@code parkNanos(1)} calls before sleeping, which on two
 * cores takes CPU from busy threads; Whale's {@code conf/storm.yaml} ships {@code io.whale.executor.PublishWait}), a
 * fixed 100 µs park ({@code WaitStrategyPark}), or Storm's progressive wait without its park level (sleeping 1 ms, or
 * 4), which the settings name as the strategy so that both systems run it.
 */
public enum WaitSetting {
    DEFAULT("default", List.of()),
    PARK_100US("park100", List.of("-c", "topology.bolt.wait.strategy=org.apache.storm.policy.WaitStrategyPark",
        "-c", "topology.bolt.wait.park.microsec=100")),
    NO_PARK_LEVEL("level2-0", List.of("-c", WaitSetting.PROGRESSIVE, "-c", "topology.bolt.wait.progressive.level2.count=0")),
    /** level2-0 sleeping 4 ms instead of 1 when idle: what the idle executors' wake-ups cost, side by side. */
    NO_PARK_LEVEL_SLEEP_4MS("level2-0-sleep4", List.of("-c", WaitSetting.PROGRESSIVE, "-c",
        "topology.bolt.wait.progressive.level2.count=0", "-c", "topology.bolt.wait.progressive.level3.sleep.millis=4"));

    /** Storm's progressive wait by name: Whale's shipped wait is another. */
    private static final String PROGRESSIVE = "topology.bolt.wait.strategy=org.apache.storm.policy.WaitStrategyProgressive";

    private final String option;
    private final List<String> overrides;

    WaitSetting(String option, List<String> overrides) {
        this.option = option;
        this.overrides = overrides;
    }

    String option() {
        return option;
    }

    public List<String> overrides() {
        return overrides;
    }

    static WaitSetting byOption(String option) {
        for (WaitSetting w : values()) {
            if (w.option.equals(option)) {
                return w;
            }
        }
        throw new IllegalArgumentException("--waits takes default, park100, level2-0 and/or level2-0-sleep4, not '" + option + "'");
    }
}
