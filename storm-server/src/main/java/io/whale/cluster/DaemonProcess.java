package io.whale.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** One daemon of the local cluster, started through {@code bin/whale} and known afterwards by its pid file (see {@link PidCheck}). */
public final class DaemonProcess {
    private static final Duration GRACE = Duration.ofSeconds(15);
    /**
     * A local cluster shares a small machine with its workers: its daemons run on the quick JIT compiler and the serial
     * collector, which take a third less CPU to start them and less than half to keep them idle (bin/whale reads
     * WHALE_DAEMON_OPTS; a value the caller set wins).
     */
    static final String LIGHT_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

    private final String name;
    private final String command;
    private final LocalClusterLayout layout;

    public DaemonProcess(String name, LocalClusterLayout layout) {
        this.name = name;
        this.command = name.startsWith("supervisor-") ? "supervisor"
            : name.equals(LocalClusterLayout.ZOOKEEPER) ? "dev-zookeeper" : name;
        this.layout = layout;
    }

    public String name() {
        return name;
    }

    /**
     * Starts the daemon detached from this JVM: its output goes to files, so it outlives the command. {@code launcher}
     * goes before the command (e.g. {@code ip netns exec NS}, which execs it, so the pid stays the daemon's).
     */
    public long start(List<String> launcher, Path whaleBin, Path whaleHome) {
        try {
            Files.createDirectories(layout.logDir(name));
            List<String> commandLine = new ArrayList<>(launcher);
            commandLine.addAll(List.of(whaleBin.toString(), "--config", layout.daemonConf(name).toString(), command));
            ProcessBuilder pb = new ProcessBuilder(commandLine)
                .redirectErrorStream(true)
                .redirectOutput(layout.logDir(name).resolve("console.out").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().put("WHALE_HOME", whaleHome.toString());
            pb.environment().put("WHALE_LOG_DIR", layout.logDir(name).toString());
            pb.environment().putIfAbsent("WHALE_DAEMON_OPTS", LIGHT_JVM);
            long pid = pb.start().pid();
            Files.writeString(layout.pidFile(name), new PidRecord(pid, ProcStat.startTicksOf(pid)).text());
            return pid;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    /** The pid file's record, if there is a readable one. */
    Optional<PidRecord> recorded() {
        Path pidFile = layout.pidFile(name);
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        try {
            return Optional.of(PidRecord.parse(Files.readString(pidFile)));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The daemon's process, only while its recorded pid still names the process that was started. */
    public Optional<ProcessHandle> process() {
        return recorded().filter(r -> check(r) == PidCheck.OURS).flatMap(r -> ProcessHandle.of(r.pid()));
    }

    public Optional<Long> pid() {
        return process().map(ProcessHandle::pid);
    }

    /**
     * Stops the daemon and every process it started (a Supervisor's workers), politely first, and removes its pid
     * file. A pid that now names another process (the daemon died, the pid was reused) is left alone.
     */
    public PidCheck stop() {
        return stopTogether(List.of(this)).get(0).check();
    }

    /** What {@link #stopTogether} found of a daemon: whether its pid was still its own, and the pid file's record. */
    record Stopped(PidCheck check, Optional<PidRecord> recorded) {
    }

    /**
     * {@link #stop} of several daemons at once: each gets its SIGTERM at the same time and they shut down side by side,
     * so that the slowest one, not their sum, is waited for. The outcomes come in the order of {@code daemons}.
     */
    static List<Stopped> stopTogether(List<DaemonProcess> daemons) {
        List<Stopped> outcomes = new ArrayList<>();
        List<ProcessHandle> processes = new ArrayList<>();
        for (DaemonProcess daemon : daemons) {
            Optional<PidRecord> recorded = daemon.recorded();
            PidCheck check = recorded.map(daemon::check).orElse(PidCheck.GONE);
            if (check == PidCheck.OURS) {
                ProcessHandle.of(recorded.get().pid()).ifPresent(p -> processes.addAll(Stream.concat(p.descendants(), Stream.of(p)).toList()));
            }
            outcomes.add(new Stopped(check, recorded));
        }
        stopAll(processes);
        try {
            for (DaemonProcess daemon : daemons) {
                Files.deleteIfExists(daemon.layout.pidFile(daemon.name));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return outcomes;
    }

    private PidCheck check(PidRecord recorded) {
        return PidCheck.of(recorded, PidCheck.Running.of(recorded.pid()), layout.root().toString());
    }

    static void stopAll(List<ProcessHandle> processes) {
        processes.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + GRACE.toNanos();
        for (ProcessHandle p : processes) {
            long left = Math.max(0, deadline - System.nanoTime());
            try {
                p.onExit().get(left, TimeUnit.NANOSECONDS);
            } catch (Exception notYet) {
                p.destroyForcibly();
            }
        }
    }

    /** The last lines of the daemon's log, for an operator to see why it died. */
    public String tailOfLog(int lines) {
        Path dir = layout.logDir(name);
        try (Stream<Path> files = Files.exists(dir) ? Files.list(dir) : Stream.empty()) {
            Optional<Path> newest = files.filter(Files::isRegularFile)
                .filter(f -> f.toString().endsWith(".log") || f.toString().endsWith(".out"))
                .filter(f -> f.toFile().length() > 0)
                .max(Comparator.comparingLong(f -> f.toFile().lastModified()));
            if (newest.isEmpty()) {
                return "(no log output in " + dir + ")";
            }
            List<String> all = Files.readAllLines(newest.get(), StandardCharsets.UTF_8);
            return "--- last lines of " + newest.get() + "\n"
                + String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read logs in " + dir + ": " + e.getMessage() + ")";
        }
    }
}
