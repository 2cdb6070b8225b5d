package io.whale.multicast.sim;

import java.nio.file.Path;

/**
 * Command-line options shared by the scenarios.
 *
 * @param quick small sizes, for the smoke tests
 * @param rate  fig21's input rate in tuples per second
 */
record ScenarioOptions(Path out, long seed, boolean quick, double rate) {
    static final String DEFAULT_OUT_PROPERTY = "whale.sim.out";

    static ScenarioOptions parse(String[] args, int from) {
        Path out = Path.of(System.getProperty(DEFAULT_OUT_PROPERTY, "target/sim"));
        long seed = 42;
        boolean quick = false;
        double rate = 20_000;
        for (int i = from; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> out = Path.of(value(args, ++i));
                case "--seed" -> seed = Long.parseLong(value(args, ++i));
                case "--rate" -> rate = Double.parseDouble(value(args, ++i));
                case "--quick" -> quick = true;
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        return new ScenarioOptions(out, seed, quick, rate);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }
}
