package io.whale.cluster.hosts;

import io.whale.cluster.LocalClusterException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The machine's CPU control groups, where {@code up --hosts N --host-cpus C} puts each emulated host's processes so that
 * the host has C cores of its own: a CFS quota of C times a short period ({@link #periodMicros}), and the CPU time its
 * processes used. Cgroup v1 (the {@code cpu} and {@code cpuacct} controllers, mounted together or apart) or v2 (a unified
 * hierarchy whose root offers {@code cpu}); a group is a folder named after the host's namespace directly under each
 * controller's root.
 * A process joins at its start ({@link #joining}), so that everything it starts (a Supervisor's workers) is in the
 * group too.
 */
public final class CpuGroups {
    /**
     * The shortest CFS period a group is given. A group that spends its quota early in a period stalls until the next
     * one: at the kernel's default period (100 ms) a 0.2-core host runs 20 ms and then stops for 80, which a small
     * machine never does, and every latency through it takes those stalls. At 10 ms the stall is at most 8 ms.
     */
    static final long SHORTEST_PERIOD_MICROS = 10_000;
    /** The longest: the kernel's default, for quotas so small that a shorter period would leave less than 1 ms. */
    static final long LONGEST_PERIOD_MICROS = 100_000;
    private static final long LEAST_QUOTA_MICROS = 1_000;
    private static final String PROCS = "cgroup.procs";

    private final boolean unified;
    private final Path cpuRoot;
    private final Path accountingRoot;

    /**
     * @param unified        cgroup v2: one hierarchy with {@code cpu.max} and {@code cpu.stat}
     * @param cpuRoot        where quotas are set ({@code cpu} of v1, the unified root of v2)
     * @param accountingRoot where usage is read ({@code cpuacct} of v1; the same as {@code cpuRoot} for v2)
     */
    CpuGroups(boolean unified, Path cpuRoot, Path accountingRoot) {
        this.unified = unified;
        this.cpuRoot = cpuRoot;
        this.accountingRoot = accountingRoot;
    }

    /** The machine's groups, or a failure that says what is missing: {@code what} names the option that needs them. */
    public static CpuGroups require(String what) {
        return detect(Path.of("/proc/self/mountinfo")).orElseThrow(() -> new LocalClusterException(what
            + " needs the CPU control groups: cgroup v1's 'cpu' and 'cpuacct' controllers mounted (as under /sys/fs/cgroup/cpu"
            + " and /sys/fs/cgroup/cpuacct), or cgroup v2 with 'cpu' in the root's cgroup.controllers; this machine has neither"));
    }

    /** What {@code /proc/self/mountinfo} says is mounted: v1's controllers when both are there, else a v2 root offering cpu. */
    static Optional<CpuGroups> detect(Path mountinfo) {
        List<String> lines;
        try {
            lines = Files.readAllLines(mountinfo);
        } catch (IOException e) {
            return Optional.empty();
        }
        Path cpu = null;
        Path cpuacct = null;
        Path unifiedRoot = null;
        for (String line : lines) {
            // mount-id parent major:minor root mount-point options [optional fields] - fstype source super-options
            String[] halves = line.split(" - ", 2);
            String[] fields = halves[0].split(" ");
            if (halves.length < 2 || fields.length < 5) {
                continue;
            }
            String[] after = halves[1].split(" ");
            Path mountPoint = Path.of(fields[4]);
            if (after[0].equals("cgroup") && after.length >= 3) {
                Set<String> options = Set.of(after[2].split(","));
                cpu = options.contains("cpu") ? mountPoint : cpu;
                cpuacct = options.contains("cpuacct") ? mountPoint : cpuacct;
            } else if (after[0].equals("cgroup2") && offersCpu(mountPoint)) {
                unifiedRoot = mountPoint;
            }
        }
        if (cpu != null && cpuacct != null) {
            return Optional.of(new CpuGroups(false, cpu, cpuacct));
        }
        return Optional.ofNullable(unifiedRoot).map(root -> new CpuGroups(true, root, root));
    }

    private static boolean offersCpu(Path unifiedRoot) {
        try {
            return List.of(Files.readString(unifiedRoot.resolve("cgroup.controllers")).strip().split(" ")).contains("cpu");
        } catch (IOException e) {
            return false;
        }
    }

    /** Creates group {@code name} (or takes the one there) with a quota of {@code cpus} cores. */
    public void create(String name, double cpus) {
        try {
            if (unified) {
                enableCpuForChildren();
            }
            for (Path dir : dirs(name)) {
                Files.createDirectories(dir);
            }
        } catch (IOException e) {
            throw new LocalClusterException("cannot create the CPU control group " + name + " under " + cpuRoot + ": " + e.getMessage());
        }
        limit(name, OptionalDouble.of(cpus));
    }

    /** Gives group {@code name} a quota of {@code cpus} cores, or none (empty): its processes may take every core. */
    public void limit(String name, OptionalDouble cpus) {
        Path group = cpuRoot.resolve(name);
        try {
            long period = cpus.isPresent() ? periodMicros(cpus.getAsDouble()) : LONGEST_PERIOD_MICROS;
            String unlimited = unified ? "max" : "-1";
            String quota = cpus.isPresent() ? String.valueOf(quotaMicros(cpus.getAsDouble(), period)) : unlimited;
            if (unified) {
                Files.writeString(group.resolve("cpu.max"), quota + " " + period);
            } else {
                Files.writeString(group.resolve("cpu.cfs_period_us"), String.valueOf(period));
                Files.writeString(group.resolve("cpu.cfs_quota_us"), quota);
            }
        } catch (IOException e) {
            throw new LocalClusterException("cannot set the CPU quota of control group " + name + " under " + cpuRoot + ": " + e.getMessage());
        }
    }

    private void enableCpuForChildren() throws IOException {
        Path control = cpuRoot.resolve("cgroup.subtree_control");
        if (!List.of(Files.readString(control).strip().split(" ")).contains("cpu")) {
            Files.writeString(control, "+cpu");
        }
    }

    /** Fails naming the bad value unless {@code cpus} lies in 0.01..{@code machineCores}. */
    public static double checkCores(double cpus, int machineCores) {
        if (!(cpus >= 0.01 && cpus <= machineCores)) {
            throw new IllegalArgumentException("--host-cpus takes a number of cores in 0.01.." + machineCores
                + " (this machine's), got " + cpus);
        }
        return cpus;
    }

    /** The CFS period for a quota of {@code cpus} cores: the shortest in which that quota is still 1 ms or more. */
    static long periodMicros(double cpus) {
        long fitting = (long) Math.ceil(LEAST_QUOTA_MICROS / cpus);
        return Math.min(LONGEST_PERIOD_MICROS, Math.max(SHORTEST_PERIOD_MICROS, fitting));
    }

    /** A CFS quota of {@code cpus} cores per {@code periodMicros}, at least the kernel's least quota (1 ms). */
    static long quotaMicros(double cpus, long periodMicros) {
        return Math.max(LEAST_QUOTA_MICROS, Math.round(cpus * periodMicros));
    }

    /**
     * {@code command} started inside group {@code name}: a shell joins the group, then replaces itself with the command
     * (its pid stays the command's), so that nothing the command starts runs outside it.
     */
    public List<String> joining(String name, List<String> command) {
        StringBuilder join = new StringBuilder();
        for (Path dir : dirs(name)) {
            join.append("echo $$ > '").append(dir.resolve(PROCS)).append("' && ");
        }
        List<String> full = new ArrayList<>(List.of("sh", "-c", join + "exec \"$@\"", "whale-host-cpu"));
        full.addAll(command);
        return full;
    }

    /** The CPU time group {@code name}'s processes used, in nanoseconds; empty when there is no such group. */
    public OptionalLong usedNanos(String name) {
        Path group = accountingRoot.resolve(name);
        try {
            if (!unified) {
                Path usage = group.resolve("cpuacct.usage");
                return Files.exists(usage) ? OptionalLong.of(Long.parseLong(Files.readString(usage).strip())) : OptionalLong.empty();
            }
            Path stat = group.resolve("cpu.stat");
            if (!Files.exists(stat)) {
                return OptionalLong.empty();
            }
            return Files.readAllLines(stat).stream().filter(l -> l.startsWith("usage_usec "))
                .mapToLong(l -> Long.parseLong(l.substring("usage_usec ".length()).strip()) * 1_000).findFirst();
        } catch (IOException | NumberFormatException e) {
            throw new UncheckedIOException(new IOException("cannot read the CPU time of control group " + group + ": " + e.getMessage(), e));
        }
    }

    /** The pids in group {@code name} (none when it does not exist). */
    public List<Long> pids(String name) {
        Path procs = cpuRoot.resolve(name).resolve(PROCS);
        try {
            return Files.exists(procs) ? Files.readAllLines(procs).stream().map(String::strip).filter(l -> !l.isEmpty())
                .map(Long::parseLong).toList() : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + procs, e);
        }
    }

    /** Whether group {@code name} exists. */
    public boolean exists(String name) {
        return dirs(name).stream().anyMatch(Files::isDirectory);
    }

    /** Removes group {@code name} (its processes must be gone); true when it existed. */
    public boolean remove(String name) {
        boolean existed = false;
        for (Path dir : dirs(name)) {
            try {
                existed |= Files.deleteIfExists(dir);
            } catch (IOException e) {
                throw new LocalClusterException("cannot remove the CPU control group " + dir + " (processes " + pids(name)
                    + " still in it?): " + e.getMessage());
            }
        }
        return existed;
    }

    private List<Path> dirs(String name) {
        return List.copyOf(new LinkedHashSet<>(List.of(cpuRoot.resolve(name), accountingRoot.resolve(name))));
    }
}
