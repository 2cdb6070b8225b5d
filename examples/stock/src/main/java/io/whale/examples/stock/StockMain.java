package io.whale.examples.stock;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import io.whale.examples.stock.topology.StockTopology;
import io.whale.examples.stock.topology.StockTopology.Parallelism;
import io.whale.examples.topology.TopologyLauncher;
import io.whale.examples.topology.TopologyOptions;
import org.apache.storm.Config;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Submits the stock deal topology: {@code whale jar <jar> io.whale.examples.stock.StockMain [options]
 * [-c key=value ...]}. Conf overrides given with {@code -c} (Storm's {@code storm.options}) reach the
 * topology conf, e.g. {@code -c whale.woc.enabled=false} or {@code -c stock.window.ms=5000}.
 */
@Command(name = "stock", mixinStandardHelpOptions = true,
        description = "Submits the stock deal matching topology reading from Kafka.")
public final class StockMain implements Callable<Integer> {
    @Mixin
    TopologyOptions options;

    @Option(names = "--topic", defaultValue = "stock-orders", description = "(default: ${DEFAULT-VALUE})")
    String topic;

    @Option(names = "--spouts", defaultValue = "1", description = "(default: ${DEFAULT-VALUE})")
    int spouts;

    @Option(names = "--splitters", defaultValue = "2", description = "(default: ${DEFAULT-VALUE})")
    int splitters;

    @Option(names = "--matchers", defaultValue = "4", description = "matcher parallelism (default: ${DEFAULT-VALUE})")
    int matchers;

    @Option(names = "--aggregators", defaultValue = "2", description = "(default: ${DEFAULT-VALUE})")
    int aggregators;

    @Option(names = "--window-ms", description = "tumbling window length (default: " + StockTopology.DEFAULT_WINDOW_MS + ")")
    Long windowMillis;

    public static void main(String[] args) {
        System.exit(new CommandLine(new StockMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Map<String, Object> settings = new HashMap<>();
        if (windowMillis != null) {
            settings.put(StockTopology.WINDOW_KEY, windowMillis);
        }
        Config conf = options.topologyConf(settings);
        String name = options.name("stock");
        var topology = StockTopology.builder(StockTopology.kafkaSource(options.bootstrap, topic, name),
                new Parallelism(spouts, splitters, matchers, aggregators), options.reportIntervalSeconds).createTopology();
        return TopologyLauncher.submit(name, conf, topology, options.durationSeconds);
    }
}
