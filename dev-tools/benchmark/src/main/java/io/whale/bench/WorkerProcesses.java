package io.whale.bench;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** The worker processes of a killed topology, waited for: the next run must not share the CPUs with them. */
public final class WorkerProcesses {
    /** How long a killed topology's workers may take to exit. */
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(120);

    private WorkerProcesses() {
    }

    /** Returns once none of {@code pids} is alive; fails naming them after {@link #STOP_TIMEOUT}. */
    public static void awaitGone(Set<Long> pids) throws InterruptedException {
        long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
        while (pids.stream().anyMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("workers " + pids + " still running " + STOP_TIMEOUT + " after the kill");
            }
            TimeUnit.MILLISECONDS.sleep(250);
        }
    }
}
