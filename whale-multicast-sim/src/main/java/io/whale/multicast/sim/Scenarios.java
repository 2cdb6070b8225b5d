package io.whale.multicast.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs the simulator scenarios; each writes {@code <name>.json} and PNG charts into the output folder.
 *
 * <pre>
 * Scenarios fig21|ratestep|theorems|all [--out DIR] [--seed N] [--quick] [--rate TUPLES_PER_S]
 * </pre>
 */
public final class Scenarios {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Scenarios() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: Scenarios fig21|ratestep|theorems|all [--out DIR] [--seed N] [--quick]"
                    + " [--rate TUPLES_PER_S]");
            System.exit(2);
        }
        ScenarioOptions options = ScenarioOptions.parse(args, 1);
        Files.createDirectories(options.out());
        switch (args[0]) {
            case "fig21" -> Fig21Scenario.run(options);
            case "ratestep" -> RateStepScenario.run(options);
            case "theorems" -> TheoremsScenario.run(options);
            case "all" -> {
                Fig21Scenario.run(options);
                RateStepScenario.run(options);
                TheoremsScenario.run(options);
            }
            default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
        }
    }

    static void writeJson(Path file, Object value) {
        try {
            JSON.writeValue(file.toFile(), value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println("wrote " + file.toAbsolutePath().normalize());
    }
}
