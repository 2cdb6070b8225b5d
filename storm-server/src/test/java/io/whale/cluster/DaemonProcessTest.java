package io.whale.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stopping a daemon by its pid file, with real processes: a stand-in for bin/whale that execs {@code sleep}. */
class DaemonProcessTest {

    @Test
    void shouldStopTheDaemonItStarted(@TempDir Path tmp) throws Exception {
        DaemonProcess nimbus = new DaemonProcess(LocalClusterLayout.NIMBUS, layout(tmp));
        ProcessHandle started = ProcessHandle.of(nimbus.start(List.of(), sleepingWhale(tmp), tmp)).orElseThrow();
        try {
            assertEquals(Optional.of(started.pid()), nimbus.pid());

            assertEquals(PidCheck.OURS, nimbus.stop());

            started.onExit().get(30, TimeUnit.SECONDS);
            assertFalse(started.isAlive(), "the daemon was stopped");
        } finally {
            started.destroyForcibly();
        }
    }

    @Test
    void shouldStopDaemonsSideBySideSoThatEachMayWaitForTheOthersSignal(@TempDir Path tmp) throws Exception {
        LocalClusterLayout layout = layout(tmp);
        // each stand-in, on SIGTERM, waits for the other to have got its own before it exits: stopped one after
        // the other, the first would wait out its grace and be killed. Its sleep is signalled too, and first: the loop
        // keeps the shell waiting for its own signal when the sleep ends before it (it ran off the script's end once)
        Path whale = tmp.resolve("fake-whale");
        Files.writeString(whale, """
            #!/usr/bin/env bash
            name=${!#}; other=$([ "$name" = nimbus ] && echo ui || echo nimbus)
            cd "$(dirname "$0")"
            trap 'touch $name.term; until [ -e $other.term ]; do sleep 0.05; done; touch $name.clean; exit 0' TERM
            touch $name.ready
            while :; do sleep 600 & wait; done
            """);
        Files.setPosixFilePermissions(whale, PosixFilePermissions.fromString("rwx------"));
        DaemonProcess nimbus = new DaemonProcess(LocalClusterLayout.NIMBUS, layout);
        DaemonProcess ui = new DaemonProcess(LocalClusterLayout.UI, layout);
        ProcessHandle first = ProcessHandle.of(nimbus.start(List.of(), whale, tmp)).orElseThrow();
        ProcessHandle second = ProcessHandle.of(ui.start(List.of(), whale, tmp)).orElseThrow();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(tmp.resolve("nimbus.ready")) && Files.exists(tmp.resolve("ui.ready")));

            assertEquals(List.of(PidCheck.OURS, PidCheck.OURS), DaemonProcess.stopTogether(List.of(nimbus, ui)).stream()
                .map(DaemonProcess.Stopped::check).toList());

            assertTrue(Files.exists(tmp.resolve("nimbus.clean")), "nimbus exited on its own after ui got its signal");
            assertTrue(Files.exists(tmp.resolve("ui.clean")), "ui exited on its own after nimbus got its signal");
        } finally {
            first.destroyForcibly();
            second.destroyForcibly();
        }
    }

    @Test
    void shouldStartTheDaemonOnTheLightJvmUnlessTheCallerChoseOptions(@TempDir Path tmp) throws Exception {
        Path whale = tmp.resolve("fake-whale");
        Files.writeString(whale, "#!/usr/bin/env bash\necho \"$WHALE_DAEMON_OPTS\" > \"$(dirname \"$0\")/opts\"\nexec sleep 600\n");
        Files.setPosixFilePermissions(whale, PosixFilePermissions.fromString("rwx------"));
        DaemonProcess nimbus = new DaemonProcess(LocalClusterLayout.NIMBUS, layout(tmp));
        ProcessHandle started = ProcessHandle.of(nimbus.start(List.of(), whale, tmp)).orElseThrow();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(tmp.resolve("opts")) && Files.readString(tmp.resolve("opts")).endsWith("\n"));
            String expected = System.getenv().getOrDefault("WHALE_DAEMON_OPTS", DaemonProcess.LIGHT_JVM);
            assertEquals(expected, Files.readString(tmp.resolve("opts")).strip());
        } finally {
            nimbus.stop();
            started.destroyForcibly();
        }
    }

    @Test
    void shouldLeaveAloneAProcessThatGotTheDeadDaemonsPid(@TempDir Path tmp) throws Exception {
        LocalClusterLayout layout = layout(tmp);
        DaemonProcess nimbus = new DaemonProcess(LocalClusterLayout.NIMBUS, layout);
        // The kernel cannot be made to reuse a pid on demand: the dead daemon's pid file is pointed at another
        // process instead, as if the pid had gone to it. The other process must start at an earlier clock tick
        // (10 ms) than the daemon, as a process that gets a reused pid starts at another tick.
        Process stranger = new ProcessBuilder("sleep", "600").start();
        ProcessHandle daemon = null;
        try {
            long strangerStart = ProcStat.startTicksOf(stranger.pid()).orElseThrow();
            await().atMost(Duration.ofSeconds(10)).until(() -> uptimeTicks() > strangerStart);
            daemon = ProcessHandle.of(nimbus.start(List.of(), sleepingWhale(tmp), tmp)).orElseThrow();
            daemon.destroyForcibly();
            daemon.onExit().get(30, TimeUnit.SECONDS);
            Path pidFile = layout.pidFile(LocalClusterLayout.NIMBUS);
            Files.writeString(pidFile, Files.readString(pidFile).replaceFirst("^" + daemon.pid(), Long.toString(stranger.pid())));

            assertEquals(Optional.empty(), nimbus.pid(), "the stranger is not reported as the daemon");
            assertEquals(PidCheck.OTHER, nimbus.stop());

            assertTrue(stranger.isAlive(), "the process that got the pid was not signalled");
            assertFalse(Files.exists(pidFile), "the stale pid file is removed");
        } finally {
            if (daemon != null) {
                daemon.destroyForcibly();
            }
            stranger.destroyForcibly();
            stranger.waitFor();
        }
    }

    /** Clock ticks since boot, the unit of a process's start time in /proc/PID/stat. */
    private static long uptimeTicks() throws Exception {
        return Math.round(Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split("\\s+")[0]) * 100);
    }

    private static LocalClusterLayout layout(Path tmp) throws Exception {
        LocalClusterLayout layout = new LocalClusterLayout(tmp.resolve("cluster"));
        Files.createDirectories(layout.pidFile(LocalClusterLayout.NIMBUS).getParent());
        return layout;
    }

    /** Stands in for bin/whale: becomes a long sleep, as bin/whale becomes the daemon's JVM (same pid, same start time). */
    private static Path sleepingWhale(Path dir) throws Exception {
        Path file = dir.resolve("fake-whale");
        Files.writeString(file, "#!/usr/bin/env bash\nexec sleep 600\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }
}
