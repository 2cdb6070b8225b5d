package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        Map<String, Long> before = Map.of("matcher executors", 100L, "spout executor", 50L, "GC Thread#N", 7L);
        Map<String, Long> after = Map.of("matcher executors", 1_100L, "spout executor", 250L, "GC Thread#N", 7L,
            "Worker-Transfer", 30L);
        Map<String, Double> percent = ThreadCpu.percentOfACore(before, after, 10);
        assertEquals(List.of("matcher executors", "spout executor", "Worker-Transfer"), List.copyOf(percent.keySet()));
        assertEquals(100.0, percent.get("matcher executors"));
        assertEquals(3.0, percent.get("Worker-Transfer"));
    }

    @Test
    void shouldReadTheThreadsOfThisProcess() {
        Map<String, Long> ticks = ThreadCpu.ticksByRole(List.of(ProcessHandle.current().pid()));
        assertTrue(ticks.size() > 3 && ticks.values().stream().mapToLong(Long::longValue).sum() > 0, ticks.toString());
    }
}
