package io.whale.distribution;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code local-cluster up --hosts} that does not get to the end: it fails, or it is killed half-way. Either way no
 * namespace, link or process of the cluster may stay behind once {@code up} (or the {@code down} after it) is over.
 * And who it runs as: the daemons as the user asked for, else nobody, never in a folder another user could write nor
 * in one their user cannot reach.
 */
class EmulatedHostsLifecycleIT {

    @BeforeAll
    static void needsRoot() {
        assumeTrue(EmulatedHosts.available(), "needs root for network namespaces (ip netns, bridges, veth links)");
    }

    @Test
    void shouldRemoveEverythingItCreatedWhenUpFails() throws Exception {
        Path dir = Path.of("target/hosts-failed-up").toAbsolutePath();
        WhaleCli.deleteRecursively(dir);
        Set<String> linksBefore = EmulatedHosts.linksHere();

        // ZooKeeper cannot create its data folder: up fails after it built the network and started a daemon.
        WhaleCli.Result up = WhaleCli.whale("-c", "dev.zookeeper.path=/proc/whale-cannot-write", "local-cluster", "up",
            "--hosts", "2", "--link-mbit", "20", "--host-cpus", "1", "--dir", dir.toString());
        System.out.println(up.output());

        assertEquals(1, up.exit(), up.output());
        assertTrue(up.output().contains("zookeeper died at start"), up.output());
        assertTrue(up.output().contains("namespace " + EmulatedHosts.recordedNamespaces(dir).get(0) + " removed"), up.output());
        assertNothingLeft(dir, linksBefore);
        WhaleCli.Result down = WhaleCli.whale("local-cluster", "down", "--dir", dir.toString());
        assertEquals(0, down.exit(), down.output());
        assertTrue(down.output().contains("was already removed"), "a down after it finds nothing to do:\n" + down.output());
    }

    @Test
    void shouldRemoveEverythingOnDownAfterUpWasKilledHalfWay() throws Exception {
        Path dir = Path.of("target/hosts-killed-up").toAbsolutePath();
        WhaleCli.deleteRecursively(dir);
        Set<String> linksBefore = EmulatedHosts.linksHere();
        Process up = new ProcessBuilder(WhaleCli.BIN.toString(), "local-cluster", "up", "--hosts", "1", "--host-cpus", "1", "--dir", dir.toString())
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            await().atMost(Duration.ofMinutes(2)).until(() -> Files.exists(dir.resolve("pids/supervisor-1.pid")));
            // The command dies (itself and the part of it running in host 0), as on a crash; the daemons it started live on.
            up.toHandle().children().forEach(ProcessHandle::destroyForcibly);
            up.destroyForcibly().waitFor();
            List<Long> daemons = EmulatedHosts.processesOf(dir);
            assertFalse(daemons.isEmpty(), "the daemons outlive the killed up");
            assertTrue(EmulatedHosts.recordedNamespaces(dir).stream().allMatch(EmulatedHosts::namespaceExists));

            WhaleCli.Result down = WhaleCli.whale("local-cluster", "down", "--dir", dir.toString());
            System.out.println(down.output());

            assertEquals(0, down.exit(), down.output());
            assertNothingLeft(dir, linksBefore);
            for (long pid : daemons) {
                assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "process " + pid + " outlived down");
            }
        } finally {
            up.destroyForcibly();
        }
    }

    /** Issue 34: the daemons, and so the workers and the topologies' code, run as nobody when root names no one. */
    @Test
    void shouldRunTheDaemonsAsNobodyWhenRootNamesNoUserOnceTheNamespacesExist() throws Exception {
        Path dir = Path.of("target/hosts-user").toAbsolutePath();
        WhaleCli.deleteRecursively(dir);
        Set<String> linksBefore = EmulatedHosts.linksHere();
        try {
            WhaleCli.Result up = WhaleCli.run(Duration.ofMinutes(3), Map.of(), List.of("env", "-u", "SUDO_USER", "-u", "WHALE_DAEMON_USER",
                WhaleCli.BIN.toString(), "local-cluster", "up", "--hosts", "1", "--dir", dir.toString()));
            System.out.println(up.output());

            assertEquals(0, up.exit(), up.output());
            assertTrue(up.output().contains("daemons and workers run as nobody (uid 65534)"), up.output());
            List<Long> daemons = EmulatedHosts.processesOf(dir);
            assertFalse(daemons.isEmpty(), "the daemons run");
            for (long pid : daemons) {
                assertEquals("nobody", ProcessHandle.of(pid).flatMap(p -> p.info().user()).orElse("gone"), "daemon " + pid);
            }
            assertEquals("root", Files.getOwner(dir.resolve("conf/storm.yaml")).getName(), "what root reads stays root's");
            assertEquals("root", Files.getOwner(dir.resolve("pids")).getName());
        } finally {
            WhaleCli.Result down = WhaleCli.whale("local-cluster", "down", "--dir", dir.toString());
            assertEquals(0, down.exit(), down.output());
        }
        assertNothingLeft(dir, linksBefore);
    }

    @Test
    void shouldRefuseAClusterItsDaemonsUserCannotReachNamingWhatToOpen() throws Exception {
        Path closed = Files.createTempDirectory("whale-closed", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path dir = closed.resolve("cluster");
        Set<String> linksBefore = EmulatedHosts.linksHere();
        try {
            WhaleCli.Result up = WhaleCli.run(Duration.ofMinutes(3), Map.of(), List.of(WhaleCli.BIN.toString(),
                "local-cluster", "up", "--hosts", "1", "--user", "nobody", "--dir", dir.toString()));

            assertEquals(1, up.exit(), up.output());
            assertTrue(up.output().contains("--user nobody cannot write " + dir.resolve("logs") + ": a folder on the way is closed to it"),
                up.output());
            assertNothingLeft(dir, linksBefore);
        } finally {
            WhaleCli.deleteRecursively(closed);
        }
    }

    @Test
    void shouldRefuseAClusterFolderAnotherUserCouldWrite() throws Exception {
        Path open = Files.createTempDirectory("whale-open");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path dir = open.resolve("cluster");
        try {
            WhaleCli.Result up = WhaleCli.whale("local-cluster", "up", "--hosts", "1", "--dir", dir.toString());

            assertEquals(1, up.exit(), up.output());
            assertTrue(up.output().contains("whale local-cluster: --dir " + dir + ": " + open + " is writable by every user"), up.output());
            assertFalse(Files.exists(dir), "nothing was written");
        } finally {
            WhaleCli.deleteRecursively(open);
        }
    }

    @Test
    void shouldSayWhyAndWhatToDoWithoutRoot() throws Exception {
        Path logs = Files.createTempDirectory("whale-nobody", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
        Files.setPosixFilePermissions(logs, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path dir = logs.resolve("cluster");

        WhaleCli.Result up = WhaleCli.run(Duration.ofMinutes(1), Map.of("WHALE_LOG_DIR", logs.toString()), List.of(
            "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", WhaleCli.BIN.toString(),
            "local-cluster", "up", "--hosts", "1", "--dir", dir.toString()));

        assertEquals(1, up.exit(), up.output());
        assertTrue(up.output().contains("whale local-cluster: local-cluster up --hosts needs root"), up.output());
        assertTrue(up.output().contains("Run it as root"), up.output());
        assertFalse(Files.exists(dir.resolve("hosts.properties")), "nothing was planned, let alone created");
        WhaleCli.deleteRecursively(logs);
    }

    private static void assertNothingLeft(Path dir, Set<String> linksBefore) throws Exception {
        for (String ns : EmulatedHosts.recordedNamespaces(dir)) {
            assertFalse(EmulatedHosts.namespaceExists(ns), "namespace " + ns + " was left behind");
            assertFalse(EmulatedHosts.cpuGroupExists(ns), "CPU control group " + ns + " was left behind");
        }
        assertEquals(linksBefore, EmulatedHosts.linksHere(), "nothing was added to the machine's own namespace");
        assertEquals(List.of(), EmulatedHosts.processesOf(dir), "no process of the cluster is left");
    }
}
