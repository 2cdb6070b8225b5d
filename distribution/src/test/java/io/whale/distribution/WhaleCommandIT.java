package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WhaleCommandIT {
    private static final String VERSION = System.getProperty("whale.version");

    @Test
    void versionPrintsStormAndWhale() throws Exception {
        WhaleCli.Result r = WhaleCli.whale("version");
        assertEquals(0, r.exit(), r.output());
        List<String> lines = r.output().lines().toList();
        assertTrue(lines.contains("Storm 2.8.3"), r.output());
        assertTrue(lines.contains("Whale " + VERSION + " (Apache Storm 2.8.3)"), r.output());
    }

    @Test
    void unknownCommandAndBadOverrideAreRefused() throws Exception {
        WhaleCli.Result unknown = WhaleCli.whale("frobnicate");
        assertNotEquals(0, unknown.exit());
        assertTrue(unknown.output().contains("whale: unknown command: frobnicate"), unknown.output());

        WhaleCli.Result badOverride = WhaleCli.whale("-c", "topology.workers", "list");
        assertNotEquals(0, badOverride.exit());
        assertTrue(badOverride.output().contains("-c takes key=value"), badOverride.output());
    }

    @Test
    void missingJavaIsExplained(@TempDir Path tmp) throws Exception {
        // A PATH with the shell tools bin/whale uses, and no java.
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        for (String tool : List.of("bash", "dirname", "basename")) {
            Files.createSymbolicLink(bin.resolve(tool), Path.of("/usr/bin", tool));
        }
        WhaleCli.Result r = WhaleCli.run(Duration.ofSeconds(30), Map.of("PATH", bin.toString(), "JAVA_HOME", tmp.resolve("no-jdk").toString()),
            List.of(bin.resolve("bash").toString(), WhaleCli.BIN.toString(), "version"));
        assertNotEquals(0, r.exit());
        assertTrue(r.output().contains("whale: Java not found"), r.output());
    }

    @Test
    void localClusterOnATakenPortSaysWhichPort(@TempDir Path tmp) throws Exception {
        try (var holder = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            int port = holder.getLocalPort();
            WhaleCli.Result r = WhaleCli.whale("local-cluster", "up", "--supervisors", "1", "--base-port", String.valueOf(port),
                "--dir", tmp.resolve("cluster").toString());
            assertNotEquals(0, r.exit());
            assertTrue(r.output().contains("port " + port + " (storm.zookeeper.port) is taken"), r.output());
        }
    }
}
