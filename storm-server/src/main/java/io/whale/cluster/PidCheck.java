package io.whale.cluster;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * Whether the process now under a daemon's recorded pid is the daemon that was started. A daemon that died leaves its
 * pid file behind, and the kernel may give the pid to any later process: only {@link #OURS} may be signalled.
 */
public enum PidCheck {
    /** The process that was started. */
    OURS,
    /** No process has the pid. */
    GONE,
    /** Another process has the pid now, or nothing shows that it is the daemon: it is left alone. */
    OTHER;

    /**
     * What runs under a pid now: its start time where /proc has it, its command line where the system shows it.
     */
    record Running(boolean alive, OptionalLong startTicks, Optional<String> commandLine) {
        static Running of(long pid) {
            Optional<ProcessHandle> handle = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
            return new Running(handle.isPresent(), handle.isPresent() ? ProcStat.startTicksOf(pid) : OptionalLong.empty(),
                handle.flatMap(h -> h.info().commandLine()));
        }
    }

    /**
     * The start times decide when both are known (equal: ours; different: the pid was reused). Without a recorded
     * start time (a pid file from before they were kept, or a system without /proc) the process must at least name
     * {@code commandMark} (the cluster's folder, which both {@code bin/whale} and the daemon's JVM carry) on its command line.
     */
    static PidCheck of(PidRecord recorded, Running now, String commandMark) {
        if (!now.alive()) {
            return GONE;
        }
        if (recorded.startTicks().isPresent() && now.startTicks().isPresent()) {
            return recorded.startTicks().getAsLong() == now.startTicks().getAsLong() ? OURS : OTHER;
        }
        return now.commandLine().filter(c -> c.contains(commandMark)).isPresent() ? OURS : OTHER;
    }
}
