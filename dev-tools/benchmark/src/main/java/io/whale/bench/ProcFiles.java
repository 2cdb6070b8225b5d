package io.whale.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the kernel counters the benchmark needs: a process's and the machine's CPU time, an interface's byte counters. */
public final class ProcFiles {
    /** Linux's USER_HZ: the unit of utime and stime in /proc/PID/stat on every mainstream architecture. */
    static final long CLOCK_TICKS_PER_SECOND = 100;

    private ProcFiles() {
    }

    /** User plus system CPU time in clock ticks, from the text of /proc/PID/stat. */
    static long cpuTicks(String stat) {
        // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** The machine's CPU time since boot in clock ticks, over all cores: busy (not idle, not waiting for I/O) and in all. */
    public record MachineTicks(long busy, long total) {
        /** The cores kept busy on average between {@code earlier} and this reading. */
        public double coresBusySince(MachineTicks earlier, int cores) {
            long all = total - earlier.total;
            return all <= 0 ? 0 : cores * (double) (busy - earlier.busy) / all;
        }
    }

    /** From the text of /proc/stat: its first line sums all cores (user nice system idle iowait irq softirq steal …). */
    static MachineTicks machineTicks(String stat) {
        String[] fields = stat.substring(0, stat.indexOf('\n')).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i <= 8 && i < fields.length; i++) {
            total += Long.parseLong(fields[i]);
        }
        long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
        return new MachineTicks(total - idle, total);
    }

    public static MachineTicks machineTicks() {
        return machineTicks(read(Path.of("/proc/stat")));
    }

    /** Bytes transmitted by INTERFACE, from the text of /proc/net/dev. */
    static long transmittedBytes(String netDev, String iface) {
        for (String line : netDev.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equals(iface)) {
                return transmitted(line, colon);
            }
        }
        throw new IllegalArgumentException("no interface " + iface + " in /proc/net/dev");
    }

    /** Bytes transmitted by every interface but loopback, from the text of /proc/net/dev. */
    static long transmittedBytesBesidesLoopback(String netDev) {
        long bytes = 0;
        for (String line : netDev.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.contains("|") && !line.substring(0, colon).trim().equals("lo")) {
                bytes += transmitted(line, colon);
            }
        }
        return bytes;
    }

    /**
     * Bytes sent by the host that runs {@code pid}: its network namespace's interfaces but loopback (an emulated
     * host's one link), read from /proc/PID/net/dev, which shows the process's own namespace: no command to start.
     */
    static long hostLinkBytesOf(long pid) {
        return transmittedBytesBesidesLoopback(read(Path.of("/proc/" + pid + "/net/dev")));
    }

    private static long transmitted(String line, int colon) {
        String[] counters = line.substring(colon + 1).trim().split("\\s+");
        // 8 receive counters, then transmit bytes.
        return Long.parseLong(counters[8]);
    }

    static double cpuSecondsOf(long pid) {
        return (double) cpuTicks(read(Path.of("/proc/" + pid + "/stat"))) / CLOCK_TICKS_PER_SECOND;
    }

    /** Bytes sent over loopback in this process's network namespace. */
    static long loopbackBytes() {
        return transmittedBytes(read(Path.of("/proc/net/dev")), "lo");
    }

    public static double[] loadAverage() {
        String[] f = read(Path.of("/proc/loadavg")).trim().split("\\s+");
        return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])};
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
