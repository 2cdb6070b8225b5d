package io.whale.bench.paper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JDK Flight Recording of the broadcast source's workers for Figs. 25–26, with only the execution samples on
 * ({@link #PERIOD}): started with {@code jcmd} before the feed is released (a jcmd takes 2–12 s on the loaded machine,
 * longer than a quick run's warm-up and window together: started in the warm-up, it once missed the window whole) and
 * stopped after the capacity window, whose samples alone are read; jcmd reaches a worker in
 * any emulated host's network namespace (it attaches through the file system). A worker that cannot be recorded leaves
 * the run's send-path figures unmeasured (NaN), never fails it.
 */
final class SourceRecording {
    static final Duration PERIOD = Duration.ofMillis(10);
    private static final String NAME = "whale-paper-send-path";

    private final Path jcmd;
    private final Path dir;
    private final List<Long> recording = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    SourceRecording(Path dir) {
        this.jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        this.dir = dir;
    }

    /** Starts recording each of {@code pids}. */
    void start(List<Long> pids) throws IOException, InterruptedException {
        Path settings = dir.resolve("send-path.jfc");
        Files.writeString(settings, """
            <?xml version="1.0" encoding="UTF-8"?>
            <configuration version="2.0" label="send path">
              <event name="jdk.ExecutionSample">
                <setting name="enabled">true</setting>
                <setting name="period">%d ms</setting>
              </event>
            </configuration>
            """.formatted(PERIOD.toMillis()));
        for (long pid : pids) {
            if (jcmd(pid, "JFR.start", "name=" + NAME, "settings=" + settings)) {
                recording.add(pid);
            }
        }
    }

    /** Stops them; returns the recordings written, none when a worker could not be recorded. */
    List<Path> stop() throws IOException, InterruptedException {
        List<Path> files = new ArrayList<>();
        for (long pid : recording) {
            Path file = dir.resolve("source-" + pid + ".jfr");
            if (jcmd(pid, "JFR.stop", "name=" + NAME, "filename=" + file) && Files.exists(file)) {
                files.add(file);
            }
        }
        return problems.isEmpty() ? files : List.of();
    }

    /** Why a worker could not be recorded (empty when every one was). */
    List<String> problems() {
        return List.copyOf(problems);
    }

    private boolean jcmd(long pid, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
        line.addAll(List.of(command));
        Process p = new ProcessBuilder(line).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            problems.add(String.join(" ", line) + ": " + out.strip());
            return false;
        }
        return true;
    }
}
