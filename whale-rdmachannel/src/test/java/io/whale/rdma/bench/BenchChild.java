package io.whale.rdma.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A benchmark's receiving process (this classpath, its own JVM), whose {@code LISTENING port} and
 * {@code RESULT json} lines are handed to the benchmark in order. Stopped by its own handle.
 */
final class BenchChild implements AutoCloseable {
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private BenchChild(Process process) {
        this.process = process;
        Thread reader = new Thread(this::readLines, "bench-child-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    static BenchChild start(String heap, Class<?> mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap, "-cp", System.getProperty("java.class.path")));
        settingOverrides().forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().putIfAbsent("UCX_LOG_LEVEL", "error");
        return new BenchChild(builder.start());
    }

    private void readLines() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                for (String prefix : List.of("LISTENING ", "RESULT ")) {
                    if (line.startsWith(prefix)) {
                        lines.add(line.substring(prefix.length()));
                    }
                }
            }
        } catch (IOException ignored) {
            // the child is gone
        }
    }

    /** Settings given to the benchmark as {@code -Dwhale.*} or {@code -Dstorm.messaging.*}; the child gets them too. */
    static java.util.Map<String, String> settingOverrides() {
        java.util.Map<String, String> overrides = new java.util.TreeMap<>();
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("whale.") || key.startsWith("storm.messaging.")) {
                overrides.put(key, System.getProperty(key));
            }
        }
        return overrides;
    }

    /** The UCX transport settings both processes inherit from the environment, for the report. */
    static String ucxEnvironment() {
        StringBuilder text = new StringBuilder();
        System.getenv().entrySet().stream().filter(e -> e.getKey().startsWith("UCX_TLS")
                || e.getKey().startsWith("UCX_NET_DEVICES")).sorted(java.util.Map.Entry.comparingByKey())
                .forEach(e -> text.append(e.getKey()).append('=').append(e.getValue()).append(' '));
        return text.length() == 0 ? "default transports" : text.toString().trim();
    }

    /** The port the child listens on. */
    int port(Duration timeout) throws InterruptedException {
        return Integer.parseInt(next(timeout, "its port"));
    }

    /** The next RESULT line's JSON. */
    String result(Duration timeout) throws InterruptedException {
        return next(timeout, "a result");
    }

    private String next(Duration timeout, String what) throws InterruptedException {
        String line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) {
            throw new IllegalStateException("the benchmark receiver (pid " + process.pid() + ", alive="
                    + process.isAlive() + ") did not print " + what + " within " + timeout);
        }
        return line;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
