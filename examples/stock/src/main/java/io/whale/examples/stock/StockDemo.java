package io.whale.examples.stock;

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
 * {@code whale demo stock}: the local cluster, Kafka, a generated NASDAQ-format order stream, the stock
 * deal topology on 2 workers, live deal throughput and latency, a summary, and a clean shutdown. How many
 * deals a stream gives is not known in advance, so the demo ends when the reporter sees no more deals.
 */
@Command(name = "whale demo stock", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs the stock deal matching topology on the local cluster, fed from Kafka.")
public final class StockDemo implements Callable<Integer> {
    @Mixin
    DemoOptions demo;

    @Option(names = "--records", defaultValue = "100000", description = "order records (default: ${DEFAULT-VALUE})")
    long records;

    public static void main(String[] args) {
        System.exit(new CommandLine(new StockDemo()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<Generation> dataset = List.of(new Generation(records + " buy and sell orders over 6,649 symbols",
            List.of("stock", "--records", Long.toString(records), "--seed", Long.toString(demo.seed()))));
        return new KafkaExampleDemo("stock", "deals", StockMain.class, demo)
            .run(dataset, 0);
    }
}
