package io.whale.examples.smoke;

import java.util.ArrayList;
import java.util.List;

/**
 * The smoke topology's arguments; {@link #toArgs()} gives them back for a submission command. {@code rate} 0 emits the
 * numbers once; a positive rate emits them over and over at that many tuples per second, so deliveries go on for as
 * long as the topology runs (a cluster under faults).
 */
public record SmokeSettings(String name, int tuples, int parallelism, int workers, int rate, String reportDir) {

    public SmokeSettings {
        if (tuples < 1 || parallelism < 1 || workers < 1) {
            throw new IllegalArgumentException("--tuples, --parallelism and --workers must be positive");
        }
        if (rate < 0) {
            throw new IllegalArgumentException("--rate must be 0 (emit once) or a number of tuples per second, got " + rate);
        }
        if (reportDir == null || reportDir.isEmpty()) {
            throw new IllegalArgumentException("--report-dir is required: the folder the counting tasks report to");
        }
    }

    public static SmokeSettings parse(String[] args) {
        String name = "whale-smoke";
        int tuples = 2_000;
        int parallelism = 4;
        int workers = 2;
        int rate = 0;
        String reportDir = null;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--name" -> name = value;
                case "--tuples" -> tuples = Integer.parseInt(value);
                case "--parallelism" -> parallelism = Integer.parseInt(value);
                case "--workers" -> workers = Integer.parseInt(value);
                case "--rate" -> rate = Integer.parseInt(value);
                case "--report-dir" -> reportDir = value;
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                    + " (options: --name --tuples --parallelism --workers --rate --report-dir)");
            }
        }
        return new SmokeSettings(name, tuples, parallelism, workers, rate, reportDir);
    }

    public List<String> toArgs() {
        return new ArrayList<>(List.of("--name", name, "--tuples", String.valueOf(tuples),
            "--parallelism", String.valueOf(parallelism), "--workers", String.valueOf(workers), "--rate", String.valueOf(rate), "--report-dir", reportDir));
    }
}
