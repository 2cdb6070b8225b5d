package io.whale.examples.ridehailing;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import io.whale.examples.ridehailing.topology.RideHailingTopology;
import io.whale.examples.ridehailing.topology.RideHailingTopology.Parallelism;
import io.whale.examples.topology.TopologyLauncher;
import io.whale.examples.topology.TopologyOptions;
import org.apache.storm.Config;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Submits the ride-hailing topology: {@code whale jar <jar> io.whale.examples.ridehailing.RideHailingMain
 * [options] [-c key=value ...]}. Conf overrides given with {@code -c} (Storm's {@code storm.options})
 * reach the topology conf, e.g. {@code -c whale.woc.enabled=false} or {@code -c ridehailing.radius.m=800}.
 * The decision wait is checked before anything is submitted.
 */
@Command(name = "ridehailing", mixinStandardHelpOptions = true,
        description = "Submits the ride-hailing order dispatch topology reading from Kafka.")
public final class RideHailingMain implements Callable<Integer> {
    @Mixin
    TopologyOptions options;

    @Option(names = "--drivers-topic", defaultValue = "ridehailing-drivers", description = "(default: ${DEFAULT-VALUE})")
    String driversTopic;

    @Option(names = "--orders-topic", defaultValue = "ridehailing-orders", description = "(default: ${DEFAULT-VALUE})")
    String ordersTopic;

    @Option(names = "--driver-spouts", defaultValue = "1", description = "(default: ${DEFAULT-VALUE})")
    int driverSpouts;

    @Option(names = "--order-spouts", defaultValue = "1", description = "(default: ${DEFAULT-VALUE})")
    int orderSpouts;

    @Option(names = "--matchers", defaultValue = "4", description = "matcher parallelism (default: ${DEFAULT-VALUE})")
    int matchers;

    @Option(names = "--aggregators", defaultValue = "2", description = "(default: ${DEFAULT-VALUE})")
    int aggregators;

    @Option(names = "--radius-m", description = "search radius in metres (default: " + RideHailingTopology.DEFAULT_RADIUS_M + ")")
    Double radiusMetres;

    @Option(names = "--decide-wait-ms", description = "how long after an order reaches its aggregator it is decided with the "
            + "answers in hand (default: " + RideHailingTopology.DEFAULT_DECIDE_WAIT_MS + ")")
    Long decideWaitMillis;

    @Option(names = "--decide-clock-ms", description = "how often every aggregator gets a clock tuple to decide the orders due "
            + "on, so that few orders are not decided late (default: " + RideHailingTopology.DEFAULT_DECIDE_CLOCK_MS + ")")
    Long decideClockMillis;

    public static void main(String[] args) {
        System.exit(new CommandLine(new RideHailingMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Map<String, Object> settings = new HashMap<>();
        if (radiusMetres != null) {
            settings.put(RideHailingTopology.RADIUS_KEY, radiusMetres);
        }
        if (decideWaitMillis != null) {
            settings.put(RideHailingTopology.DECIDE_WAIT_KEY, decideWaitMillis);
        }
        if (decideClockMillis != null) {
            settings.put(RideHailingTopology.DECIDE_CLOCK_KEY, decideClockMillis);
        }
        Config conf = options.topologyConf(settings);
        try {
            RideHailingTopology.decideClockMillis(conf);
        } catch (IllegalArgumentException e) {
            System.err.println("ridehailing: " + e.getMessage());
            return 2;
        }
        String name = options.name("ridehailing");
        var topology = RideHailingTopology.builder(
                RideHailingTopology.driverSpout(options.bootstrap, driversTopic, name),
                RideHailingTopology.orderSpout(options.bootstrap, ordersTopic, name),
                new Parallelism(driverSpouts, orderSpouts, matchers, aggregators),
                options.reportIntervalSeconds).createTopology();
        return TopologyLauncher.submit(name, conf, topology, options.durationSeconds);
    }
}
