package io.whale.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The failure paths of {@code whale local-cluster up}, with a stand-in for bin/whale. */
class LocalClusterCommandTest {

    @Test
    void daemonThatDiesAtStartIsNamedWithTheTailOfItsLog(@TempDir Path tmp) throws Exception {
        Path fakeWhale = script(tmp, "echo \"starting $3\"; echo 'FATAL: invalid storm.zookeeper.port'; exit 1");
        LocalClusterLayout layout = new LocalClusterLayout(tmp.resolve("cluster"));
        LocalClusterCommand command = new LocalClusterCommand(layout, new PrintStream(new ByteArrayOutputStream()));

        LocalClusterException e = assertThrows(LocalClusterException.class,
            () -> command.up(freePlan(), tmp, fakeWhale, Duration.ofSeconds(30), List.of(), Optional.empty()));

        assertTrue(e.getMessage().startsWith("zookeeper died at start"), e.getMessage());
        assertTrue(e.getMessage().contains("FATAL: invalid storm.zookeeper.port"), e.getMessage());
        assertFalse(Files.exists(layout.pidFile("zookeeper")), "a failed start leaves no pid file behind");
    }

    @Test
    void refusesToStartOnATakenPortBeforeStartingAnything(@TempDir Path tmp) throws Exception {
        Path marker = tmp.resolve("started");
        Path fakeWhale = script(tmp, "touch " + marker);
        try (ServerSocket holder = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            PortPlan plan = new PortPlan(holder.getLocalPort(), 1, 1);
            LocalClusterCommand command = new LocalClusterCommand(new LocalClusterLayout(tmp.resolve("cluster")),
                new PrintStream(new ByteArrayOutputStream()));

            LocalClusterException e = assertThrows(LocalClusterException.class,
                () -> command.up(plan, tmp, fakeWhale, Duration.ofSeconds(30), List.of(), Optional.empty()));

            assertTrue(e.getMessage().contains("(storm.zookeeper.port) is taken"), e.getMessage());
            assertFalse(Files.exists(marker), "no daemon was started");
        }
    }

    @Test
    void downWithoutAClusterSaysSo(@TempDir Path tmp) {
        LocalClusterCommand command = new LocalClusterCommand(new LocalClusterLayout(tmp), System.out);
        assertThrows(LocalClusterException.class, command::down);
    }

    @Test
    void faultOptionsNameTheBadHostFaultOrRate() {
        assertEquals("fault HOST takes a number, got 'x'", parseError("fault", "x", "kill"));
        assertEquals("unknown fault 'explode': partition, heal, kill or slow MBIT", parseError("fault", "2", "explode"));
        assertEquals("a link rate lies in 1..100000 Mbit/s, got 0", parseError("fault", "2", "slow", "0"));
        assertTrue(parseError("fault", "2", "slow").startsWith("fault HOST slow needs a rate in Mbit/s"));
        LocalClusterCommand.Options slow = LocalClusterCommand.Options.parse(new String[] {"fault", "2", "slow", "5", "--dir", "/tmp/c"});
        assertEquals(2, slow.faultHost);
        assertEquals(OptionalInt.of(5), slow.faultMbit);
    }

    @Test
    void hostOptionsNeedHostsAndStatusTakesJson() {
        assertEquals("--link-mbit, --host-cpus and --subnet shape emulated hosts: give --hosts N too", parseError("up", "--link-mbit", "20"));
        assertEquals("--link-mbit, --host-cpus and --subnet shape emulated hosts: give --hosts N too", parseError("up", "--host-cpus", "0.5"));
        assertEquals("--hosts takes a positive number, got 0", parseError("up", "--hosts", "0"));
        assertTrue(parseError("up", "--hosts", "2", "--subnet", "10.213.4/24").startsWith("not an IPv4 network"));
        assertTrue(LocalClusterCommand.Options.parse(new String[] {"status", "--json", "--dir", "/tmp/c"}).json);
    }

    @Test
    void hostCpusTakeAFractionOfACoreUpToTheMachinesCoresAndNameABadValue() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(OptionalDouble.of(0.25), LocalClusterCommand.Options.parse(new String[] {"up", "--hosts", "3", "--host-cpus", "0.25"}).hostCpus);
        assertEquals("--host-cpus takes a number, got 'half'", parseError("up", "--hosts", "3", "--host-cpus", "half"));
        assertEquals("--host-cpus takes a number of cores in 0.01.." + cores + " (this machine's), got 0.0",
            parseError("up", "--hosts", "3", "--host-cpus", "0"));
        assertEquals("--host-cpus takes a number of cores in 0.01.." + cores + " (this machine's), got " + (cores + 1.0),
            parseError("up", "--hosts", "3", "--host-cpus", String.valueOf(cores + 1)));
        assertEquals("--host-cpus takes a number of cores in 0.01.." + cores + " (this machine's), got NaN",
            parseError("up", "--hosts", "3", "--host-cpus", "NaN"));
    }

    private static String parseError(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> LocalClusterCommand.Options.parse(args)).getMessage();
    }

    private static PortPlan freePlan() throws Exception {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = probe.getLocalPort();
            return new PortPlan(port < 60000 ? port : 30000, 1, 1);
        }
    }

    private static Path script(Path dir, String body) throws Exception {
        Path file = dir.resolve("fake-whale");
        Files.writeString(file, "#!/usr/bin/env bash\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }
}
