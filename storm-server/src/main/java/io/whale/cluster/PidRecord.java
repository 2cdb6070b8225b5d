package io.whale.cluster;

import java.util.OptionalLong;

/**
 * What a daemon's pid file holds: the pid on the first line (as any pid file) and, where /proc had it when the
 * daemon was started, {@code starttime=TICKS}, which tells the daemon apart from a later process given the same pid.
 */
record PidRecord(long pid, OptionalLong startTicks) {
    private static final String START = "starttime=";

    String text() {
        return pid + "\n" + (startTicks.isPresent() ? START + startTicks.getAsLong() + "\n" : "");
    }

    /** Reads a pid file's text; one with only a pid (written before start times were kept) has no start time. */
    static PidRecord parse(String text) {
        String[] lines = text.strip().split("\\R");
        long pid = Long.parseLong(lines[0].strip());
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].startsWith(START)) {
                return new PidRecord(pid, OptionalLong.of(Long.parseLong(lines[i].substring(START.length()).strip())));
            }
        }
        return new PidRecord(pid, OptionalLong.empty());
    }
}
