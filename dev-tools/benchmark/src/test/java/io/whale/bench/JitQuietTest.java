package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class JitQuietTest {

    @Test
    void shouldCountOnlyTheCompilerThreadsOfEveryKind() {
        assertEquals(JitQuiet.COMPILER_ROLE, ThreadCpu.role("C1 CompilerThre"), "C1's and C2's threads are one role");
        Map<String, Long> before = Map.of(JitQuiet.COMPILER_ROLE, 1_000L, "matcher executors", 5_000L);
        Map<String, Long> after = Map.of(JitQuiet.COMPILER_ROLE, 1_150L, "matcher executors", 6_000L);

        assertEquals(0.3, JitQuiet.compilerCores(before, after, 5.0), 1e-9, "150 ticks of 1/100 s over 5 s");
    }

    @Test
    void shouldOpenTheWindowOnlyOnceTheCompilerUsesAtMostAFewPercentOfACore() {
        Map<String, Long> before = Map.of(JitQuiet.COMPILER_ROLE, 1_000L);

        assertFalse(JitQuiet.quiet(before, Map.of(JitQuiet.COMPILER_ROLE, 1_100L), 5.0), "0.2 cores: C2 still compiling");
        assertTrue(JitQuiet.quiet(before, Map.of(JitQuiet.COMPILER_ROLE, 1_025L), 5.0), "0.05 cores");
        assertTrue(JitQuiet.quiet(before, before, 5.0), "nothing compiled");
        assertTrue(JitQuiet.quiet(Map.of(), Map.of("matcher executors", 900L), 5.0), "no compiler thread seen");
    }
}
