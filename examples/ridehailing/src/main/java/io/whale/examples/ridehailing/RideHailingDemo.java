package io.whale.examples.ridehailing;

import java.util.List;
import java.util.concurrent.Callable;

import io.whale.examples.demo.DemoOptions;
import io.whale.examples.demo.KafkaExampleDemo;
import io.whale.examples.demo.KafkaExampleDemo.Generation;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code whale demo ridehailing}: the local cluster, Kafka, a generated Didi-format dataset (driver
 * positions first, then orders), the ride-hailing topology on 2 workers, live dispatch throughput and
 * latency, a summary, and a clean shutdown. Every order gets one answer, so the demo ends when all are in.
 */
@Command(name = "whale demo ridehailing", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs the ride-hailing order dispatch topology on the local cluster, fed from Kafka.")
public final class RideHailingDemo implements Callable<Integer> {
    @Mixin
    DemoOptions demo;

    @Option(names = "--drivers", defaultValue = "2000", description = "drivers in the fleet (default: ${DEFAULT-VALUE})")
    int drivers;

    @Option(names = "--positions", defaultValue = "40000", description = "driver position records (default: ${DEFAULT-VALUE})")
    long positions;

    @Option(names = "--orders", defaultValue = "100000", description = "order records (default: ${DEFAULT-VALUE})")
    long orders;

    public static void main(String[] args) {
        System.exit(new CommandLine(new RideHailingDemo()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        String seed = Long.toString(demo.seed());
        List<Generation> dataset = List.of(
            new Generation(positions + " positions of " + drivers + " drivers", List.of("ridehailing-trajectories",
                "--records", Long.toString(positions), "--drivers", Integer.toString(drivers), "--seed", seed)),
            new Generation(orders + " orders", List.of("ridehailing-orders", "--records", Long.toString(orders), "--seed", seed)));
        return new KafkaExampleDemo("ridehailing", "orders dispatched", RideHailingMain.class, demo)
            .run(dataset, orders);
    }
}
