package io.whale.cluster.hosts;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuGroupsTest {
    private static final String V1_APART = """
        22 1 0:20 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
        23 22 0:21 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu
        24 22 0:22 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
        25 22 0:23 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
        """;

    @Test
    void shouldFindV1sCpuAndCpuacctControllersMountedApartOrTogether(@TempDir Path tmp) throws Exception {
        CpuGroups apart = detect(tmp, V1_APART).orElseThrow();
        assertEquals(List.of("sh", "-c", "echo $$ > '/sys/fs/cgroup/cpu/whale-a-h1/cgroup.procs' && "
                + "echo $$ > '/sys/fs/cgroup/cpuacct/whale-a-h1/cgroup.procs' && exec \"$@\"", "whale-host-cpu", "ip", "netns"),
            apart.joining("whale-a-h1", List.of("ip", "netns")));

        CpuGroups together = detect(tmp, "30 22 0:24 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n").orElseThrow();
        assertEquals(List.of("sh", "-c", "echo $$ > '/sys/fs/cgroup/cpu,cpuacct/g/cgroup.procs' && exec \"$@\"", "whale-host-cpu", "x"),
            together.joining("g", List.of("x")), "one controller folder is joined once");
    }

    @Test
    void shouldTakeAV2RootOnlyWhenItOffersTheCpuController(@TempDir Path tmp) throws Exception {
        Path unified = Files.createDirectories(tmp.resolve("unified"));
        String mount = "40 22 0:30 / " + unified + " rw - cgroup2 cgroup2 rw\n";
        Files.writeString(unified.resolve("cgroup.controllers"), "memory pids\n");
        assertEquals(Optional.empty(), detect(tmp, mount), "a v2 root without cpu (v1 has it) is no use");

        Files.writeString(unified.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
        assertTrue(detect(tmp, mount).isPresent());
        assertEquals(Optional.empty(), detect(tmp, "25 22 0:23 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"));
    }

    @Test
    void shouldSetAV1QuotaOfTheCoresPerPeriodAndReadTheGroupsCpuTime(@TempDir Path tmp) throws Exception {
        Path cpu = Files.createDirectories(tmp.resolve("cpu/whale-a-h2"));
        Path acct = Files.createDirectories(tmp.resolve("cpuacct/whale-a-h2"));
        Files.writeString(cpu.resolve("cpu.cfs_period_us"), "100000\n");
        CpuGroups groups = new CpuGroups(false, tmp.resolve("cpu"), tmp.resolve("cpuacct"));

        groups.create("whale-a-h2", 0.25);
        Files.writeString(acct.resolve("cpuacct.usage"), "1527557236\n");

        assertEquals("10000", Files.readString(cpu.resolve("cpu.cfs_period_us")), "a short period, not the kernel's 100 ms");
        assertEquals("2500", Files.readString(cpu.resolve("cpu.cfs_quota_us")));
        assertEquals(OptionalLong.of(1_527_557_236L), groups.usedNanos("whale-a-h2"));
        assertEquals(OptionalLong.empty(), groups.usedNanos("whale-a-h3"), "no group, no figure");
    }

    @Test
    void shouldSetAV2MaxAfterEnablingCpuForTheRootsChildren(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("cgroup.subtree_control"), "memory\n");
        CpuGroups groups = new CpuGroups(true, tmp, tmp);

        groups.create("whale-a-h0", 1.5);
        Files.writeString(tmp.resolve("whale-a-h0/cpu.stat"), "usage_usec 2500\nuser_usec 2000\nsystem_usec 500\n");

        assertEquals("+cpu", Files.readString(tmp.resolve("cgroup.subtree_control")));
        assertEquals("15000 10000", Files.readString(tmp.resolve("whale-a-h0/cpu.max")));
        assertEquals(OptionalLong.of(2_500_000L), groups.usedNanos("whale-a-h0"));
    }

    @Test
    void shouldLiftAGroupsQuotaAndSetItAgain(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("cgroup.subtree_control"), "cpu\n");
        CpuGroups v2 = new CpuGroups(true, tmp, tmp);
        v2.create("whale-a-h1", 0.25);

        v2.limit("whale-a-h1", OptionalDouble.empty());
        assertEquals("max 100000", Files.readString(tmp.resolve("whale-a-h1/cpu.max")));
        v2.limit("whale-a-h1", OptionalDouble.of(0.25));
        assertEquals("2500 10000", Files.readString(tmp.resolve("whale-a-h1/cpu.max")));

        Path cpu = Files.createDirectories(tmp.resolve("v1/cpu/whale-a-h1"));
        Files.createDirectories(tmp.resolve("v1/cpuacct/whale-a-h1"));
        Files.writeString(cpu.resolve("cpu.cfs_period_us"), "100000\n");
        CpuGroups v1 = new CpuGroups(false, tmp.resolve("v1/cpu"), tmp.resolve("v1/cpuacct"));
        v1.limit("whale-a-h1", OptionalDouble.empty());
        assertEquals("-1", Files.readString(cpu.resolve("cpu.cfs_quota_us")));
    }

    @Test
    void shouldGiveAGroupTheShortestPeriodInWhichItsQuotaIsStillAMillisecond() {
        assertEquals(10_000, CpuGroups.periodMicros(0.2), "a 0.2-core host stalls at most 8 ms, not 80");
        assertEquals(10_000, CpuGroups.periodMicros(1.5));
        assertEquals(20_000, CpuGroups.periodMicros(0.05));
        assertEquals(100_000, CpuGroups.periodMicros(0.01));
        assertEquals(100_000, CpuGroups.periodMicros(0.001), "never longer than the kernel's default");
    }

    @Test
    void shouldGiveEveryGroupAtLeastTheKernelsLeastQuota() {
        assertEquals(1_000, CpuGroups.quotaMicros(0.001, 100_000));
        assertEquals(50_000, CpuGroups.quotaMicros(0.5, 100_000));
        assertEquals(200_000, CpuGroups.quotaMicros(2, 100_000));
    }

    @Test
    void shouldKeepAProcessStartedInAGroupAndEverythingItStartsThereAndCountTheirCpuTime() throws Exception {
        Optional<CpuGroups> machine = CpuGroups.detect(Path.of("/proc/self/mountinfo"));
        assumeTrue(machine.isPresent() && "0".equals(String.valueOf(Files.getAttribute(Path.of("/proc/self"), "unix:uid"))),
            "needs root and the CPU control groups");
        CpuGroups groups = machine.get();
        String name = "whale-test-" + ThreadLocalRandom.current().nextInt(1_000_000);
        groups.create(name, 0.5);
        Process busy = null;
        try {
            // a child that spins a while, then waits for its input to close: its parent's group is its own
            busy = new ProcessBuilder(groups.joining(name, List.of("sh", "-c",
                "sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; read x' & wait"))).start();
            long pid = busy.pid();
            await().atMost(Duration.ofSeconds(30)).until(() -> groups.pids(name).size() == 2 && groups.usedNanos(name).getAsLong() > 10_000_000L);
            assertTrue(groups.pids(name).contains(pid), groups.pids(name) + " holds the started process " + pid);
        } finally {
            if (busy != null) {
                busy.descendants().forEach(ProcessHandle::destroyForcibly);
                busy.destroyForcibly();
                busy.waitFor();
            }
            ProcessHandle[] left = groups.pids(name).stream().map(ProcessHandle::of).flatMap(Optional::stream).toArray(ProcessHandle[]::new);
            for (ProcessHandle p : left) {
                p.destroyForcibly();
                p.onExit().get();
            }
            assertTrue(groups.remove(name));
        }
        assertFalse(groups.exists(name));
    }

    private static Optional<CpuGroups> detect(Path tmp, String mountinfo) throws Exception {
        Path file = tmp.resolve("mountinfo-" + ThreadLocalRandom.current().nextInt(1_000_000));
        Files.writeString(file, mountinfo);
        return CpuGroups.detect(file);
    }
}
