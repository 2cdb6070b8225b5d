package io.whale.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The driver's command line: {@code [--quick] [--tuned] [--out DIR] [--matchers 4,8] [--workers 2,4] [--transports netty,rdma]
 * [--warmup-s S] [--measure-s S]}.
 */
record BenchOptions(boolean quick, boolean tuned, Path out, List<Integer> matchers, List<Integer> workers, List<String> transports,
                    int warmupSeconds, int measureSeconds) {
    /** Storm's own transport, what a topology gets without {@code whale.transport}. */
    static final String DEFAULT_TRANSPORT = "netty";
    /** The values {@code whale.transport} accepts. */
    static final Set<String> TRANSPORTS = Set.of("netty", "rdma");
    static final String USAGE = "usage: bench-woc.sh [--quick] [--tuned] [--out DIR] [--matchers P,P,...] [--workers W,W,...] "
        + "[--transports netty,rdma] [--warmup-s S] [--measure-s S]";

    static BenchOptions parse(String... args) {
        boolean quick = List.of(args).contains("--quick");
        boolean tuned = false;
        Path out = Path.of("dev-tools/benchmark/target/bench-woc");
        List<Integer> matchers = quick ? List.of(4, 16) : List.of(4, 8, 16, 32, 64);
        List<Integer> workers = quick ? List.of(2) : List.of(2, 4);
        List<String> transports = List.of(DEFAULT_TRANSPORT);
        int warmup = quick ? 5 : 10;
        int measure = quick ? 5 : 15;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> { }
                case "--tuned" -> tuned = true;
                case "--out" -> out = Path.of(value(args, ++i));
                case "--matchers" -> matchers = numbers(value(args, ++i));
                case "--workers" -> workers = numbers(value(args, ++i));
                case "--transports" -> transports = transports(value(args, ++i));
                case "--warmup-s" -> warmup = Integer.parseInt(value(args, ++i));
                case "--measure-s" -> measure = Integer.parseInt(value(args, ++i));
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "\n" + USAGE);
            }
        }
        return new BenchOptions(quick, tuned, out.toAbsolutePath(), matchers, workers, transports, warmup, measure);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value\n" + USAGE);
        }
        return args[i];
    }

    private static List<Integer> numbers(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).map(Integer::valueOf).toList();
    }

    private static List<String> transports(String csv) {
        List<String> names = Arrays.stream(csv.split(",")).map(String::trim).distinct().toList();
        for (String name : names) {
            if (!TRANSPORTS.contains(name)) {
                throw new IllegalArgumentException("--transports takes netty and/or rdma, not '" + name + "'\n" + USAGE);
            }
        }
        return names;
    }
}
