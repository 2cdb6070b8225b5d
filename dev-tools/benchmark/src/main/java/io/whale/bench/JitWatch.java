package io.whale.bench;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Follows the workers' JIT compiler threads after a warm-up, a {@link JitQuiet#SLICE} at a time, until {@link JitQuiet}
 * lets the measurement start: the driver calls {@link #poll} as often as it likes, with the time passed in; the threads'
 * CPU is read at most once a slice.
 */
public final class JitWatch {
    private final Set<Long> pids;
    private final Duration maxWait;
    private final Function<Collection<Long>, Map<ThreadCpu.WorkerThread, Long>> ticksByThread;
    private final long startNanos;
    private Map<ThreadCpu.WorkerThread, Long> last;
    private long lastNanos;

    /** How the wait ended: after how long, the compiler threads' cores over its last slice, and whether they were quiet. */
    public record Warmed(double waitedSeconds, double compilerCores, boolean quiet) {
        /** A line for the driver's output; {@code since} names what the wait followed. */
        public String describe(String since) {
            return quiet
                ? String.format("JIT quiet %.0f s after %s (compiler threads %.2f cores over the last %d s)", waitedSeconds, since,
                    compilerCores, JitQuiet.SLICE.toSeconds())
                : String.format("! measured with the JIT still busy: compiler threads %.2f cores, %.0f s after %s", compilerCores,
                    waitedSeconds, since);
        }
    }

    JitWatch(Collection<Long> pids, Duration maxWait, Function<Collection<Long>, Map<ThreadCpu.WorkerThread, Long>> ticksByThread,
             long nowNanos) {
        this.pids = Set.copyOf(pids);
        this.maxWait = maxWait;
        this.ticksByThread = ticksByThread;
        this.startNanos = nowNanos;
        this.last = ticksByThread.apply(this.pids);
        this.lastNanos = nowNanos;
    }

    /** Watches the threads of {@code pids} ({@link ThreadCpu#ticksByThread}) from {@code nowNanos}, for {@code maxWait} at most. */
    public static JitWatch of(Collection<Long> pids, Duration maxWait, long nowNanos) {
        return new JitWatch(pids, maxWait, ThreadCpu::ticksByThread, nowNanos);
    }

    /** Empty while the measurement should wait; how the wait ended once it should not. */
    public Optional<Warmed> poll(long nowNanos) {
        if (nowNanos - lastNanos < JitQuiet.SLICE.toNanos()) {
            return Optional.empty();
        }
        Map<ThreadCpu.WorkerThread, Long> now = ticksByThread.apply(pids);
        double cores = JitQuiet.compilerCores(ThreadCpu.usedByRole(last, now), (nowNanos - lastNanos) / 1e9);
        last = now;
        lastNanos = nowNanos;
        Duration waited = Duration.ofNanos(nowNanos - startNanos);
        JitQuiet.Next next = JitQuiet.after(cores, waited, maxWait);
        return next == JitQuiet.Next.WAIT ? Optional.empty()
            : Optional.of(new Warmed(waited.toNanos() / 1e9, cores, next == JitQuiet.Next.MEASURE));
    }
}
