package io.whale.bench;

import java.time.Duration;
import java.util.Map;

/**
 * When a warm-up is over: once the workers' JIT compiler threads have used at most {@link #QUIET_CORES} of a core over
 * a slice of {@link #SLICE}. With some 130 executor threads on two cores the compiler gets a slice of the cores like
 * any thread, and C2 finished the hot paths of a P = 64 at-least-once run (a spout's send, a bolt's ack: 3–8 s of
 * compiler time each) 30–80 s after the workers started; a window that opens before that measures the compiler as much
 * as the system (issue 33: the same point emitted 4,834 and 9,405 broadcasts/s in two rounds after a fixed 60-s warm-up). Pure: the
 * driver passes the CPU its threads used by role ({@link ThreadCpu#usedByRole}).
 */
public final class JitQuiet {
    public static final double QUIET_CORES = 0.05;
    public static final Duration SLICE = Duration.ofSeconds(5);
    /** The longest the driver waits for it beyond the warm-up; a window that opens then says the JIT was still busy. */
    public static final Duration MAX_WAIT = Duration.ofSeconds(120);
    static final String COMPILER_ROLE = ThreadCpu.role("C2 CompilerThre");

    private JitQuiet() {
    }

    /** Cores the compiler threads used over {@code seconds}, given the ticks each role used then ({@link ThreadCpu#usedByRole}). */
    static double compilerCores(Map<String, Long> usedByRole, double seconds) {
        return usedByRole.getOrDefault(COMPILER_ROLE, 0L) / (double) ProcFiles.CLOCK_TICKS_PER_SECOND / seconds;
    }

    /**
     * What the driver does after a slice: the compiler threads used {@code cores}, {@code waited} after the warm-up, which
     * it waits beyond for {@code maxWait} at most.
     */
    static Next after(double cores, Duration waited, Duration maxWait) {
        if (cores <= QUIET_CORES) {
            return Next.MEASURE;
        }
        return waited.compareTo(maxWait) >= 0 ? Next.MEASURE_STILL_BUSY : Next.WAIT;
    }

    enum Next { MEASURE, MEASURE_STILL_BUSY, WAIT }
}
