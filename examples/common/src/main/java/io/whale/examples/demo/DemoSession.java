package io.whale.examples.demo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.utils.Utils;

/**
 * What every {@code whale demo} does around its own steps: runs {@code bin/whale} subcommands, prints
 * {@code ==> step} lines, and undoes what it started — once, newest first, when the demo ends or when the
 * JVM is asked to stop (Ctrl-C, SIGTERM).
 *
 * <p>Register the undo step before the command that needs it ({@link #onClose}), so a command that fails
 * half-way is undone too. Once closing has begun, no new command starts except the undo steps' own.
 */
public final class DemoSession implements AutoCloseable {
    /** How long closing waits for a command in flight (it got the same Ctrl-C) before killing it. */
    private static final long IN_FLIGHT_GRACE_SECONDS = 30;

    /** An undo step: usually one or two {@code whale} commands. */
    @FunctionalInterface
    public interface Undo {
        void run() throws IOException, InterruptedException;
    }

    private record NamedUndo(String step, Undo undo) {
    }

    private final Path whaleBin;
    private final Deque<NamedUndo> undoSteps = new ArrayDeque<>();
    private final Thread closeOnSignal = new Thread(this::close, "whale-demo-cleanup");
    /** Volatile: {@link #isClosing} answers while {@link #close} holds the lock for the undo steps. */
    private volatile boolean closed;
    /** The thread running the undo steps while it does: the only one that may still start commands. */
    private Thread undoer;
    private Process inFlight;

    public DemoSession(Path whaleBin) {
        this.whaleBin = whaleBin;
        Runtime.getRuntime().addShutdownHook(closeOnSignal);
    }

    /** The session of a demo started by {@code bin/whale demo}, which sets {@code whale.bin}. */
    public static DemoSession fromWhaleCommand() {
        return new DemoSession(Path.of(System.getProperty("whale.bin")));
    }

    /** The demo's folder ({@code whale.demo.dir}, set by {@code bin/whale} from {@code WHALE_DEMO_DIR}). */
    public static Path demoDir() {
        return Path.of(System.getProperty("whale.demo.dir", "local-cluster")).toAbsolutePath();
    }

    /** The {@code -c} overrides given to {@code whale demo}, as {@code -c key=value} arguments to hand on to {@code whale jar}. */
    public static List<String> overridesFromCommandLine() {
        List<String> args = new ArrayList<>();
        for (Map.Entry<String, Object> e : Utils.readCommandLineOpts().entrySet()) {
            Object v = e.getValue();
            args.add("-c");
            args.add(e.getKey() + "=" + (v instanceof String s ? s : JSONValue.toJSONString(v)));
        }
        return args;
    }

    public static void step(String what) {
        System.out.println("==> " + what);
    }

    /**
     * In its own network namespace (bin/whale's default as root) the demo's cluster, and its UI, are reachable from
     * that namespace only: says how to enter it while the demo runs.
     */
    public static void stepUi() {
        if (System.getenv("WHALE_IN_NETNS") != null) {
            step("whale ui (the UI address above) is inside the demo's network namespace; from this machine, while the demo runs: "
                + "nsenter --net=/proc/" + ProcessHandle.current().pid() + "/ns/net curl -s http://127.0.0.1:16002/api/v1/topology/summary"
                + " (or dev-tools/ui-screenshots.sh for pictures)");
        }
    }

    /** Runs {@code whale ARGS} with this terminal; fails unless it exits with 0. */
    public void whale(List<String> args) throws IOException, InterruptedException {
        int exit = waitFor(start(command(args).inheritIO()));
        if (exit != 0) {
            throw new IllegalStateException("'whale " + String.join(" ", args) + "' failed with exit code " + exit);
        }
    }

    /** Runs {@code whale ARGS} with its output discarded; returns its exit code. */
    public int whaleQuietly(List<String> args) throws IOException, InterruptedException {
        return waitFor(start(command(args).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)));
    }

    /** Adds a step to run when the session closes; steps run newest first, each once. */
    public synchronized void onClose(String step, Undo undo) {
        undoSteps.push(new NamedUndo(step, undo));
    }

    /** Whether closing has begun (the demo ended, or the JVM was asked to stop): a command failing now failed because of it. */
    public boolean isClosing() {
        return closed;
    }

    /**
     * Runs the undo steps, once. A second caller (the shutdown hook while the demo is closing, or the
     * demo after the hook) waits until the first has finished.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        undoer = Thread.currentThread();
        awaitInFlight();
        while (!undoSteps.isEmpty()) {
            NamedUndo next = undoSteps.pop();
            step(next.step());
            try {
                next.undo().run();
            } catch (IOException | RuntimeException e) {
                System.err.println("whale demo: clean-up failed: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        undoer = null;
        if (Thread.currentThread() != closeOnSignal) {
            try {
                Runtime.getRuntime().removeShutdownHook(closeOnSignal);
            } catch (IllegalStateException shuttingDown) {
                // The JVM is already stopping; the hook will find the session closed.
            }
        }
    }

    private synchronized Process start(ProcessBuilder builder) throws IOException {
        boolean undoStep = undoer == Thread.currentThread();
        if (closed && !undoStep) {
            throw new IllegalStateException("the demo is shutting down");
        }
        Process process = builder.start();
        if (!undoStep) {
            inFlight = process;
        }
        return process;
    }

    private int waitFor(Process process) throws InterruptedException {
        try {
            return process.waitFor();
        } finally {
            synchronized (this) {
                if (inFlight == process) {
                    inFlight = null;
                }
            }
        }
    }

    /** A command the demo was running when asked to stop finishes (or is killed) before the undo steps run. */
    private void awaitInFlight() {
        Process running = inFlight;
        if (running == null) {
            return;
        }
        try {
            if (!running.waitFor(IN_FLIGHT_GRACE_SECONDS, TimeUnit.SECONDS)) {
                running.descendants().forEach(ProcessHandle::destroyForcibly);
                running.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private ProcessBuilder command(List<String> args) {
        List<String> command = new ArrayList<>(List.of(whaleBin.toString()));
        command.addAll(args);
        return new ProcessBuilder(command);
    }
}
