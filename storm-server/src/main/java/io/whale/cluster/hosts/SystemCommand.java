package io.whale.cluster.hosts;

import io.whale.cluster.LocalClusterException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs one {@code ip}/{@code tc} command and returns its output; a failure names the command and what it printed. */
public final class SystemCommand {
    private static final long TIMEOUT_SECONDS = 60;

    private SystemCommand() {
    }

    public static String run(List<String> command) {
        Path output = null;
        try {
            output = Files.createTempFile("whale-cmd", ".out");
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new LocalClusterException("'" + String.join(" ", command) + "' did not finish within " + TIMEOUT_SECONDS + " s");
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new LocalClusterException("'" + String.join(" ", command) + "' failed (exit " + process.exitValue() + "): " + text.strip());
            }
            return text;
        } catch (IOException e) {
            throw new LocalClusterException("cannot run '" + String.join(" ", command) + "': " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalClusterException("interrupted while running '" + String.join(" ", command) + "'");
        } finally {
            if (output != null) {
                output.toFile().delete();
            }
        }
    }
}
