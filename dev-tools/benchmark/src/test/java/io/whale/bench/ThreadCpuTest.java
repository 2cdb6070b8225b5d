package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {
    @Test
    void shouldTellExecutorsByComponentHoweverTheKernelCutTheirNames() {
        assertEquals("matcher executors", ThreadCpu.role("Thread-5-match-e"));
        assertEquals("matcher executors", ThreadCpu.role("Thread-155-matc"));
        assertEquals("spout executor", ThreadCpu.role("Thread-12-order"));
        assertEquals("system executors", ThreadCpu.role("Thread-3-__acke"));
        assertEquals("client-worker-N", ThreadCpu.role("client-worker-1"));
        assertEquals("CN CompilerThre", ThreadCpu.role("C2 CompilerThre"));
    }

    @Test
    void shouldGiveEachRolesShareOfOneCoreLargestFirstLeavingOutTheNegligible() {
        Map<ThreadCpu.WorkerThread, Long> before = threads(Map.of("matcher executors", 100L, "spout executor", 50L, "GC Thread#N", 7L));
        Map<ThreadCpu.WorkerThread, Long> after = threads(Map.of("matcher executors", 1_100L, "spout executor", 250L,
            "GC Thread#N", 7L, "Worker-Transfer", 30L));
        Map<String, Double> percent = ThreadCpu.percentOfACore(ThreadCpu.usedByRole(before, after), 10);
        assertEquals(List.of("matcher executors", "spout executor", "Worker-Transfer"), List.copyOf(percent.keySet()));
        assertEquals(100.0, percent.get("matcher executors"));
        assertEquals(3.0, percent.get("Worker-Transfer"));
    }

    @Test
    void shouldLeaveOutAThreadThatEndedBetweenReadingsRatherThanCountItsTicksAsNegativeWork() {
        var ending = new ThreadCpu.WorkerThread(7, 11, JitQuiet.COMPILER_ROLE);
        var staying = new ThreadCpu.WorkerThread(7, 12, JitQuiet.COMPILER_ROLE);
        var started = new ThreadCpu.WorkerThread(8, 13, JitQuiet.COMPILER_ROLE);

        Map<String, Long> used = ThreadCpu.usedByRole(Map.of(ending, 900L, staying, 100L), Map.of(staying, 130L, started, 5L));

        assertEquals(Map.of(JitQuiet.COMPILER_ROLE, 35L), used, "30 of the thread that stayed and 5 of the one that started");
    }

    @Test
    void shouldReadTheThreadsOfThisProcess() {
        Map<String, Long> ticks = ThreadCpu.usedByRole(Map.of(), ThreadCpu.ticksByThread(List.of(ProcessHandle.current().pid())));
        assertTrue(ticks.size() > 3 && ticks.values().stream().mapToLong(Long::longValue).sum() > 0, ticks.toString());
    }

    /** One thread per role, with the ticks given: a role's threads read as one. */
    static Map<ThreadCpu.WorkerThread, Long> threads(Map<String, Long> ticksByRole) {
        Map<ThreadCpu.WorkerThread, Long> threads = new HashMap<>();
        ticksByRole.forEach((role, ticks) -> threads.put(new ThreadCpu.WorkerThread(1, role.hashCode(), role), ticks));
        return threads;
    }
}
