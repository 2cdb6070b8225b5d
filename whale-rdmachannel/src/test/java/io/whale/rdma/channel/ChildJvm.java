package io.whale.rdma.channel;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A JVM started by a test with this test classpath, whose stdout lines are collected and whose stderr (its log) goes
 * to a file under {@code target/child-jvms}; both tails are in every failure message. Stopped by its own handle.
 */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Object changed = new Object();
    private final Thread reader;

    private ChildJvm(Process process, Path log) {
        this.process = process;
        this.log = log;
        this.reader = new Thread(this::readLines, "child-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    static ChildJvm start(Class<?> mainClass, Map<String, String> env, String... args) throws IOException {
        return start(List.of(), mainClass, env, args);
    }

    /** Started through {@code prefix}, a command that execs the JVM (e.g. {@code ip netns exec NS}: its pid stays the JVM's). */
    static ChildJvm start(List<String> prefix, Class<?> mainClass, Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx96m");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-Dlog4j2.configurationFile=log4j2-child.xml");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        Path logs = Files.createDirectories(Path.of("target", "child-jvms"));
        Path log = Files.createTempFile(logs, mainClass.getSimpleName() + "-", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(log.toFile());
        builder.environment().put("UCX_LOG_LEVEL", "error");
        builder.environment().putAll(env);
        return new ChildJvm(builder.start(), log);
    }

    private void readLines() {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
                synchronized (changed) {
                    changed.notifyAll();
                }
            }
        } catch (IOException ignored) {
            // the child is gone
        }
        synchronized (changed) {
            changed.notifyAll();
        }
    }

    /** Waits for a stdout line matching {@code condition}; fails with the child's output on timeout or exit. */
    String awaitLine(Predicate<String> condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (changed) {
            while (true) {
                for (String line : lines) {
                    if (condition.test(line)) {
                        return line;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || !reader.isAlive()) {
                    throw new AssertionError("child " + process.pid() + " (alive=" + process.isAlive()
                            + ") did not print the expected line within " + timeout + "; " + describe());
                }
                TimeUnit.NANOSECONDS.timedWait(changed, left);
            }
        }
    }

    List<String> lines() {
        return List.copyOf(lines);
    }

    /** The last lines the child printed and logged, for a failure message. */
    String describe() {
        List<String> logged;
        try {
            logged = Files.readAllLines(log);
        } catch (IOException e) {
            logged = List.of("(cannot read " + log + ": " + e.getMessage() + ")");
        }
        return "output tail: " + tail(lines()) + "; log " + log + " tail: " + tail(logged);
    }

    private static List<String> tail(List<String> all) {
        return all.subList(Math.max(0, all.size() - 10), all.size());
    }

    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("child " + process.pid() + " did not exit within " + timeout + "; " + describe());
        }
        return process.exitValue();
    }

    /** SIGKILL: the peer dies mid-stream without closing anything. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    kill();
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
