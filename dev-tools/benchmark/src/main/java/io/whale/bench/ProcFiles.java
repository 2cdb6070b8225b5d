package io.whale.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the two kernel counters the benchmark needs: a process's CPU time and an interface's byte counters. */
final class ProcFiles {
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

    /** Bytes transmitted by INTERFACE, from the text of /proc/net/dev. */
    static long transmittedBytes(String netDev, String iface) {
        for (String line : netDev.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equals(iface)) {
                String[] counters = line.substring(colon + 1).trim().split("\\s+");
                // 8 receive counters, then transmit bytes.
                return Long.parseLong(counters[8]);
            }
        }
        throw new IllegalArgumentException("no interface " + iface + " in /proc/net/dev");
    }

    static double cpuSecondsOf(long pid) {
        return (double) cpuTicks(read(Path.of("/proc/" + pid + "/stat"))) / CLOCK_TICKS_PER_SECOND;
    }

    /** Bytes sent over loopback in this process's network namespace. */
    static long loopbackBytes() {
        return transmittedBytes(read(Path.of("/proc/net/dev")), "lo");
    }

    static double[] loadAverage() {
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
