package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
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
        // the daemons' class path: the client's upstream fixes and the server's
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("Carries the upstream fix: ") && l.endsWith("(CVE-2026-41081)")), r.output());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("Carries the upstream fix: ") && l.endsWith("apache/storm#8419)")), r.output());
    }

    @Test
    void shouldAnswerAsStormDoesThroughBinStorm() throws Exception {
        Path storm = WhaleCli.BIN.resolveSibling("storm");
        assertTrue(Files.isExecutable(storm), storm + " is not in the distribution");
        WhaleCli.Result viaStorm = WhaleCli.run(Duration.ofSeconds(30), Map.of(), List.of(storm.toString(), "version"));
        assertEquals(0, viaStorm.exit(), viaStorm.output());
        assertEquals(WhaleCli.whale("version").output(), viaStorm.output());

        WhaleCli.Result unknown = WhaleCli.run(Duration.ofSeconds(30), Map.of(), List.of(storm.toString(), "frobnicate"));
        assertNotEquals(0, unknown.exit());
        assertTrue(unknown.output().contains("unknown command: frobnicate"), unknown.output());
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
        for (String tool : List.of("bash", "readlink", "dirname", "basename")) {
            Files.createSymbolicLink(bin.resolve(tool), Path.of("/usr/bin", tool));
        }
        WhaleCli.Result r = WhaleCli.run(Duration.ofSeconds(30), Map.of("PATH", bin.toString(), "JAVA_HOME", tmp.resolve("no-jdk").toString()),
            List.of(bin.resolve("bash").toString(), WhaleCli.BIN.toString(), "version"));
        assertNotEquals(0, r.exit());
        assertTrue(r.output().contains("whale: Java not found"), r.output());
    }

    @Test
    void shouldFindItsHomeWhenRunThroughASymbolicLink(@TempDir Path tmp) throws Exception {
        Path link = Files.createSymbolicLink(Files.createDirectories(tmp.resolve("usr/local/bin")).resolve("whale"), WhaleCli.BIN);
        WhaleCli.Result r = WhaleCli.run(Duration.ofSeconds(30), Map.of(), List.of(link.toString(), "version"));
        assertEquals(0, r.exit(), r.output());
        assertTrue(r.output().lines().toList().contains("Whale " + VERSION + " (Apache Storm 2.8.3)"), r.output());
    }

    @Test
    void shouldNameTheMissingFolderWhenWhaleHomeIsNotAWhaleHome(@TempDir Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("lib"));
        WhaleCli.Result r = WhaleCli.run(Duration.ofSeconds(30), Map.of("WHALE_HOME", tmp.toString()), List.of(WhaleCli.BIN.toString(), "version"));
        assertNotEquals(0, r.exit());
        assertTrue(r.output().contains("whale: WHALE_HOME (" + tmp + ") is not a Whale home: it has no lib-worker/ folder"), r.output());
    }

    @Test
    void shouldTakeConfOverridesAndConfigAnywhereButAfterDoubleDash(@TempDir Path tmp) throws Exception {
        Path jar = jarOf(tmp.resolve("echo.jar"), ArgsEcho.class);
        Path conf = Files.writeString(tmp.resolve("my storm.yaml"), "");
        WhaleCli.Result r = WhaleCli.whale("-c", "before=1", "jar", jar.toString(), ArgsEcho.class.getName(),
            "--name", "x", "-c", "after.main=two words", "--config", conf.toString(), "y", "--", "-c", "mine=3", "--config", "z");
        assertEquals(0, r.exit(), r.output());
        List<String> lines = r.output().lines().toList();
        assertTrue(lines.contains("storm.options=before%3D1,after.main%3Dtwo%20words"), r.output());
        assertTrue(lines.contains("storm.conf.file=" + conf.toRealPath()), r.output());
        assertTrue(lines.contains("args=--name x y -c mine=3 --config z"), r.output());
    }

    @Test
    void kafkaGenAndLoadWorkTogether(@TempDir Path tmp) throws Exception {
        Path kafka = tmp.resolve("kafka");
        Path orders = tmp.resolve("orders.csv");
        WhaleCli.Result gen = WhaleCli.whale("gen", "ridehailing-orders", "--records", "200", "--seed", "3", "--out", orders.toString());
        assertEquals(0, gen.exit(), gen.output());
        List<String> lines = Files.readAllLines(orders);
        assertEquals(201, lines.size(), "header and 200 records");
        assertTrue(lines.get(0).startsWith("order_id,"), lines.get(0));

        WhaleCli.Result stopped = WhaleCli.whale("kafka", "status", "--dir", kafka.toString());
        assertEquals(3, stopped.exit(), stopped.output());
        assertTrue(stopped.output().contains("Kafka not running"), stopped.output());
        try {
            WhaleCli.Result start = WhaleCli.whale("kafka", "start", "--dir", kafka.toString(), "--port", "0");
            assertEquals(0, start.exit(), start.output());
            String bootstrap = Files.readString(kafka.resolve("bootstrap.servers")).trim();
            assertTrue(bootstrap.startsWith("127.0.0.1:"), bootstrap);
            assertEquals(0, WhaleCli.whale("kafka", "status", "--dir", kafka.toString()).exit());

            WhaleCli.Result load = WhaleCli.whale("load", "--bootstrap", bootstrap, "--topic", "orders", "--partitions", "2", orders.toString());
            assertEquals(0, load.exit(), load.output());
            assertTrue(load.output().contains("Loaded 200 records from " + orders + " into topic orders"), load.output());
        } finally {
            WhaleCli.Result stop = WhaleCli.whale("kafka", "stop", "--dir", kafka.toString());
            assertEquals(0, stop.exit(), stop.output());
        }
        assertFalse(Files.exists(kafka.resolve("broker.pid")), "the broker was stopped");
    }

    @Test
    void kafkaAndGenRefuseUnknownActions() throws Exception {
        WhaleCli.Result kafka = WhaleCli.whale("kafka", "restart");
        assertNotEquals(0, kafka.exit());
        assertTrue(kafka.output().contains("usage: whale kafka start|stop|status"), kafka.output());
        WhaleCli.Result gen = WhaleCli.whale("gen", "weather");
        assertNotEquals(0, gen.exit());
        assertTrue(gen.output().contains("usage: whale gen ridehailing-trajectories|ridehailing-orders|stock"), gen.output());
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

    /** A jar holding the given classes, as {@code whale jar} needs one. */
    private static Path jarOf(Path jar, Class<?>... classes) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Class<?> c : classes) {
                String entry = c.getName().replace('.', '/') + ".class";
                out.putNextEntry(new JarEntry(entry));
                try (InputStream in = c.getClassLoader().getResourceAsStream(entry)) {
                    in.transferTo(out);
                }
                out.closeEntry();
            }
        }
        return jar;
    }
}
