package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs the packaged {@code bin/whale} with a deadline. */
final class WhaleCli {
    static final Path HOME = Path.of(System.getProperty("whale.home"));
    static final Path BIN = HOME.resolve("bin/whale");

    record Result(int exit, String output) {
    }

    private WhaleCli() {
    }

    static Result run(Duration timeout, Map<String, String> env, List<String> command) throws IOException, InterruptedException {
        Path log = Files.createTempFile("whale-cli", ".out");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        Process process = pb.start();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                fail("'" + String.join(" ", command) + "' did not finish within " + timeout + ":\n" + Files.readString(log));
            }
            return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Stream.concat(process.descendants(), Stream.of(process.toHandle())).forEach(ProcessHandle::destroyForcibly);
            Files.deleteIfExists(log);
        }
    }

    static Result whale(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(BIN.toString()));
        command.addAll(List.of(args));
        return run(Duration.ofMinutes(1), Map.of(), command);
    }

    /** Root can give the cluster a network of its own, where loopback is the only interface. */
    static boolean privateNetworkAvailable() {
        try {
            Process p = new ProcessBuilder("unshare", "--net", "ip", "link", "set", "lo", "up")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** The command line that runs {@code args} in a fresh network namespace with loopback up. */
    static List<String> inPrivateNetwork(List<String> args) {
        List<String> command = new ArrayList<>(List.of("unshare", "--net", "bash", "-c", "ip link set lo up && exec \"$@\"", "netns"));
        command.addAll(args);
        return command;
    }

    /** Removes a test's run folder, so that nothing an earlier run left (logs, reports) can satisfy its checks. */
    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
