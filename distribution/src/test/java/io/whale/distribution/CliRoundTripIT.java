package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * An operator's session on a real local cluster, with Storm's commands: up, status, jar, list, deactivate,
 * activate, rebalance, kill, down — in a private network namespace. {@code jar} takes -c overrides before the
 * command and after the main class, which the workers must see, and reports the jar upload in one line, as its
 * output is not a terminal.
 */
class CliRoundTripIT {

    @Test
    void stormCommandsDriveATopologyOnTheLocalCluster() throws Exception {
        assumeTrue(WhaleCli.privateNetworkAvailable(), "needs root for a private network namespace (unshare --net)");
        Path dir = Path.of("target/cli-cluster").toAbsolutePath();
        WhaleCli.deleteRecursively(dir);
        Path script = Path.of("target/test-classes/cli-roundtrip.sh").toAbsolutePath();

        WhaleCli.Result run = WhaleCli.run(Duration.ofMinutes(8), Map.of(), WhaleCli.inPrivateNetwork(List.of("bash",
            script.toString(), WhaleCli.BIN.toString(), dir.toString(), WhaleCli.HOME.resolve("examples/whale-example-smoke.jar").toString())));
        System.out.println(run.output());
        String out = run.output();

        assertEquals(0, run.exit(), out);
        assertTrue(out.contains("ROUNDTRIP DONE"), out);
        String status = section(out, "status", "jar");
        assertTrue(status.contains("supervisor-2  running, pid"), status);
        assertTrue(status.contains(": 0/4 slots used"), status);
        String jar = section(out, "jar", "list");
        assertFalse(jar.contains("\r") || jar.contains("[="), "no progress bar when the output is not a terminal:\n" + jar);
        assertEquals(1, jar.lines().filter(l -> l.matches("File '.*whale-example-smoke\\.jar' uploaded to '.*' \\(\\d+ bytes\\)")).count(),
            "one summary line for the jar upload:\n" + jar);
        assertTrue(section(out, "list", "deactivate").matches("(?s).*cli-smoke\\s+ACTIVE\\s.*"), out);
        assertFalse(section(out, "list-after-kill", "down").contains("cli-smoke"), out);
        String down = section(out, "down", "\u0000");
        assertTrue(down.contains("is down"), out);
        for (String daemon : List.of("supervisor-2", "supervisor-1", "nimbus", "zookeeper")) {
            assertTrue(down.matches("(?s).*\\n" + daemon + " +stopped\\n.*"), "down stopped " + daemon + " by its verified pid:\n" + down);
        }
        String topologyConf = WorkerLogs.under(dir.resolve("logs"), "cli-smoke-").text().lines()
            .filter(l -> l.contains("Worker has topology config")).findFirst().orElse("no worker logged its topology config");
        assertTrue(topologyConf.contains("topology.message.timeout.secs=45"), "-c before the command: " + topologyConf);
        assertTrue(topologyConf.contains("whale.cli.probe=after-main-class"), "-c after the main class: " + topologyConf);
        try (Stream<Path> pids = Files.list(dir.resolve("pids"))) {
            assertEquals(0, pids.count(), "every daemon was stopped by its pid");
        }
    }

    /** The output printed between "STEP from" and "STEP to". */
    private static String section(String out, String from, String to) {
        int start = out.indexOf("STEP " + from + "\n");
        assertTrue(start >= 0, "step " + from + " did not run:\n" + out);
        int end = out.indexOf("STEP " + to + "\n", start + 1);
        return out.substring(start, end < 0 ? out.length() : end);
    }
}
