package io.whale.examples.stock.gen;

import java.util.concurrent.Callable;

import io.whale.examples.gen.GeneratorRun;
import io.whale.examples.gen.SinkOptions;
import io.whale.examples.stock.model.StockRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Command line of the NASDAQ-format generator, to a CSV file or a Kafka topic (keyed by record position). */
@Command(name = "nasdaq-gen", mixinStandardHelpOptions = true,
        description = "Generates NASDAQ-format order records symbol,side,price,volume,ts (deterministic for a seed).")
public final class NasdaqGeneratorMain implements Callable<Integer> {
    /** 2017-04-03 09:30 New York time, the first trading morning of the trace's month. */
    public static final long DEFAULT_START_MILLIS = 1_491_226_200_000L;

    @Option(names = "--seed", defaultValue = "1", description = "(default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--records", defaultValue = "1000000", description = "(default: ${DEFAULT-VALUE})")
    long records;

    @Option(names = "--start-ms", defaultValue = "" + DEFAULT_START_MILLIS, description = "epoch millis of the first record (default: ${DEFAULT-VALUE})")
    long startMillis;

    @Option(names = "--rate", defaultValue = "2000", description = "records per second of event time (default: ${DEFAULT-VALUE})")
    double ratePerSecond;

    @Option(names = "--zipf", defaultValue = "1.0", description = "symbol popularity exponent (default: ${DEFAULT-VALUE})")
    double zipfExponent;

    @Option(names = "--bad-share", defaultValue = "0.01", description = "share of rule-breaking records (default: ${DEFAULT-VALUE})")
    double badShare;

    @Option(names = "--topic", defaultValue = "stock-orders", description = "(default: ${DEFAULT-VALUE})")
    String topic;

    @Mixin
    SinkOptions sink;

    public static void main(String[] args) {
        System.exit(new CommandLine(new NasdaqGeneratorMain()).execute(args));
    }

    @Override
    public Integer call() {
        long n = GeneratorRun.writeAll(new NasdaqGenerator(seed, records, startMillis, ratePerSecond, zipfExponent, badShare),
                records, sink.open(StockRecord.HEADER, topic), "nasdaq", sink.progress());
        System.out.println("Wrote " + n + " stock records to " + sink.describe(topic));
        return 0;
    }
}
