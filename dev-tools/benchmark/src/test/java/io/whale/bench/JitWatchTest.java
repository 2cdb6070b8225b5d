package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class JitWatchTest {
    private static final long SLICE = JitQuiet.SLICE.toNanos();

    /** The compiler thread's ticks (1/100 s) at each reading, in order; counts the readings. */
    private static final class Readings implements Function<Collection<Long>, Map<ThreadCpu.WorkerThread, Long>> {
        private final Deque<Long> ticks;
        int read;

        Readings(Long... ticks) {
            this.ticks = new ArrayDeque<>(List.of(ticks));
        }

        @Override
        public Map<ThreadCpu.WorkerThread, Long> apply(Collection<Long> pids) {
            read++;
            return ThreadCpuTest.threads(Map.of(JitQuiet.COMPILER_ROLE, ticks.removeFirst(), "matcher executors", 10_000L * read));
        }
    }

    @Test
    void shouldReadTheThreadsOnceASliceAndWaitWhileTheCompilerIsBusy() {
        Readings readings = new Readings(0L, 100L, 200L);
        JitWatch watch = new JitWatch(List.of(7L), JitQuiet.MAX_WAIT, readings, 0);

        assertEquals(Optional.empty(), watch.poll(SLICE / 2), "within the first slice");
        assertEquals(1, readings.read, "read at the start only");
        assertEquals(Optional.empty(), watch.poll(SLICE), "100 ticks over 5 s: 0.2 cores compiling");
        assertEquals(Optional.empty(), watch.poll(SLICE + SLICE / 2));
        assertEquals(Optional.empty(), watch.poll(2 * SLICE), "0.2 cores again");
        assertEquals(3, readings.read);
    }

    @Test
    void shouldEndTheWaitOnceASliceFindsTheCompilerQuiet() {
        JitWatch watch = new JitWatch(List.of(7L, 8L), JitQuiet.MAX_WAIT, new Readings(0L, 100L, 110L), 0);

        assertTrue(watch.poll(SLICE).isEmpty());
        JitWatch.Warmed warmed = watch.poll(2 * SLICE).orElseThrow();

        assertTrue(warmed.quiet());
        assertEquals(10.0, warmed.waitedSeconds(), 1e-9);
        assertEquals(0.02, warmed.compilerCores(), 1e-9, "10 ticks over 5 s");
        assertTrue(warmed.describe("the first results").startsWith("JIT quiet 10 s after the first results"), warmed.describe("x"));
    }

    @Test
    void shouldNotTakeACompilerThreadTheJvmStoppedForAQuietCompiler() {
        var stopped = new ThreadCpu.WorkerThread(7, 21, JitQuiet.COMPILER_ROLE);
        var busy = new ThreadCpu.WorkerThread(7, 22, JitQuiet.COMPILER_ROLE);
        Deque<Map<ThreadCpu.WorkerThread, Long>> readings = new ArrayDeque<>(List.of(
            Map.of(stopped, 3_000L, busy, 1_000L), Map.of(busy, 1_100L)));
        JitWatch watch = new JitWatch(List.of(7L), JitQuiet.MAX_WAIT, pids -> readings.removeFirst(), 0);

        assertEquals(Optional.empty(), watch.poll(SLICE), "the thread that stayed compiled 100 ticks over 5 s: 0.2 cores");
    }

    @Test
    void shouldEndTheWaitWithTheCompilerStillBusyAfterTheLongestWait() {
        Duration maxWait = Duration.ofSeconds(10);
        JitWatch watch = new JitWatch(List.of(7L), maxWait, new Readings(0L, 100L, 200L), 0);

        assertTrue(watch.poll(SLICE).isEmpty(), "5 s of 10 waited");
        JitWatch.Warmed warmed = watch.poll(TimeUnit.SECONDS.toNanos(10)).orElseThrow();

        assertFalse(warmed.quiet());
        assertEquals(0.2, warmed.compilerCores(), 1e-9);
        assertTrue(warmed.describe("the warm-up").contains("JIT still busy"), warmed.describe("the warm-up"));
    }
}
