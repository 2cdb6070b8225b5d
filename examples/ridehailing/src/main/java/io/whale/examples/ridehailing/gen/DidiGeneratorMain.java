package io.whale.examples.ridehailing.gen;

import java.util.concurrent.Callable;

import io.whale.examples.gen.GeneratorRun;
import io.whale.examples.gen.SinkOptions;
import io.whale.examples.ridehailing.model.DriverLocation;
import io.whale.examples.ridehailing.model.Order;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Command line of the Didi-format generators: {@code trajectories} and {@code orders}, to a CSV file or a Kafka topic. */
@Command(name = "didi-gen", mixinStandardHelpOptions = true,
        description = "Generates Didi-format ride-hailing records (deterministic for a seed).",
        subcommands = {DidiGeneratorMain.Trajectories.class, DidiGeneratorMain.Orders.class})
public final class DidiGeneratorMain {
    /** 2016-11-01 00:00:00 in Chengdu (UTC+8), the first day of the GAIA data. */
    public static final long DEFAULT_START_TS = 1_477_929_600L;

    public static void main(String[] args) {
        System.exit(new CommandLine(new DidiGeneratorMain()).execute(args));
    }

    abstract static class Common implements Callable<Integer> {
        @Option(names = "--seed", defaultValue = "1", description = "(default: ${DEFAULT-VALUE})")
        long seed;

        @Option(names = "--records", defaultValue = "100000", description = "(default: ${DEFAULT-VALUE})")
        long records;

        @Option(names = "--start-ts", defaultValue = "" + DEFAULT_START_TS, description = "unix time of the first record (default: ${DEFAULT-VALUE})")
        long startTs;

        @Mixin
        SinkOptions sink;
    }

    @Command(name = "trajectories", description = "driver_id,order_id,unix_ts,lon,lat keyed by driver")
    static final class Trajectories extends Common {
        @Option(names = "--drivers", defaultValue = "2000", description = "(default: ${DEFAULT-VALUE})")
        int drivers;

        @Option(names = "--interval-s", defaultValue = "3", description = "seconds between positions (default: ${DEFAULT-VALUE})")
        int intervalSeconds;

        @Option(names = "--topic", defaultValue = "ridehailing-drivers", description = "(default: ${DEFAULT-VALUE})")
        String topic;

        @Override
        public Integer call() {
            long n = GeneratorRun.writeAll(new TrajectoryGenerator(seed, drivers, records, startTs, intervalSeconds),
                    records, sink.open(DriverLocation.HEADER, topic), "trajectories", sink.progress());
            System.out.println("Wrote " + n + " trajectory records to " + sink.describe(topic));
            return 0;
        }
    }

    @Command(name = "orders", description = "order_id,start_ts,end_ts,pickup_lon,pickup_lat,drop_lon,drop_lat keyed by order")
    static final class Orders extends Common {
        @Option(names = "--orders-per-day", defaultValue = "200000", description = "(default: ${DEFAULT-VALUE})")
        double ordersPerDay;

        @Option(names = "--topic", defaultValue = "ridehailing-orders", description = "(default: ${DEFAULT-VALUE})")
        String topic;

        @Override
        public Integer call() {
            long n = GeneratorRun.writeAll(new OrderGenerator(seed, records, startTs, ordersPerDay),
                    records, sink.open(Order.HEADER, topic), "orders", sink.progress());
            System.out.println("Wrote " + n + " order records to " + sink.describe(topic));
            return 0;
        }
    }
}
