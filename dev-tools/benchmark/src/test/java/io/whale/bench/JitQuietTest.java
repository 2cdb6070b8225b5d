package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JitQuietTest {

    @Test
    void shouldCountOnlyTheCompilerThreadsOfEveryKind() {
        assertEquals(JitQuiet.COMPILER_ROLE, ThreadCpu.role("C1 CompilerThre"), "C1's and C2's threads are one role");
        Map<String, Long> before = Map.of(JitQuiet.COMPILER_ROLE, 1_000L, "matcher executors", 5_000L);
        Map<String, Long> after = Map.of(JitQuiet.COMPILER_ROLE, 1_150L, "matcher executors", 6_000L);

        assertEquals(0.3, cores(before, after), 1e-9, "150 ticks of 1/100 s over 5 s");
    }

    @Test
    void shouldOpenTheWindowOnlyOnceTheCompilerUsesAtMostAFewPercentOfACore() {
        Map<String, Long> before = Map.of(JitQuiet.COMPILER_ROLE, 1_000L);

        assertFalse(quiet(before, Map.of(JitQuiet.COMPILER_ROLE, 1_100L)), "0.2 cores: C2 still compiling");
        assertTrue(quiet(before, Map.of(JitQuiet.COMPILER_ROLE, 1_025L)), "0.05 cores");
        assertTrue(quiet(before, before), "nothing compiled");
        assertTrue(quiet(Map.of(), Map.of("matcher executors", 900L)), "no compiler thread seen");
    }

    @Test
    void shouldOpenTheWindowWithTheCompilerStillBusyOnlyAfterTheLongestWait() {
        assertEquals(JitQuiet.Next.WAIT, JitQuiet.after(0.2, Duration.ofSeconds(60), JitQuiet.MAX_WAIT));
        assertEquals(JitQuiet.Next.MEASURE_STILL_BUSY, JitQuiet.after(0.2, JitQuiet.MAX_WAIT, JitQuiet.MAX_WAIT));
        assertEquals(JitQuiet.Next.MEASURE_STILL_BUSY, JitQuiet.after(0.2, Duration.ofSeconds(30), Duration.ofSeconds(30)), "a shorter wait");
        assertEquals(JitQuiet.Next.MEASURE, JitQuiet.after(0.01, Duration.ofSeconds(5), JitQuiet.MAX_WAIT));
    }

    /** Over a 5-s slice. */
    private static boolean quiet(Map<String, Long> before, Map<String, Long> after) {
        return JitQuiet.after(cores(before, after), Duration.ZERO, JitQuiet.MAX_WAIT) == JitQuiet.Next.MEASURE;
    }

    /** The compiler's cores over a 5-s slice between two readings of one thread per role. */
    private static double cores(Map<String, Long> before, Map<String, Long> after) {
        return JitQuiet.compilerCores(ThreadCpu.usedByRole(ThreadCpuTest.threads(before), ThreadCpuTest.threads(after)), 5.0);
    }
}
