package io.whale.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/** A process's start time from Linux's {@code /proc/PID/stat}: with the pid, it names one process for good. */
final class ProcStat {
    private ProcStat() {
    }

    /** Field 22 (starttime, clock ticks after boot) of a {@code /proc/PID/stat} line. */
    static long startTicks(String statLine) {
        // The command name (field 2) is in parentheses and may itself hold spaces and ')'; the fields after it are plain.
        int endOfName = statLine.lastIndexOf(')');
        if (endOfName < 0) {
            throw new IllegalArgumentException("not a /proc/PID/stat line: " + statLine);
        }
        String[] fields = statLine.substring(endOfName + 1).trim().split("\\s+");
        // fields[0] is field 3 (state), so field 22 is fields[19].
        if (fields.length < 20) {
            throw new IllegalArgumentException("a /proc/PID/stat line without a start time: " + statLine);
        }
        return Long.parseLong(fields[19]);
    }

    /** The start time of a running process; empty where /proc does not have it (the process is gone, or not Linux). */
    static OptionalLong startTicksOf(long pid) {
        try {
            return OptionalLong.of(startTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))));
        } catch (IOException | IllegalArgumentException e) {
            return OptionalLong.empty();
        }
    }
}
