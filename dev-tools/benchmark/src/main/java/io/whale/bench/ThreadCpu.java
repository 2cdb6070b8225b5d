package io.whale.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where the workers' CPU goes: the CPU time of every thread of the topology's worker processes, summed by role,
 * from /proc/PID/task/TID/stat. The kernel keeps the first 15 characters of a Java thread's name there, enough to
 * tell Storm's executor threads ({@code Thread-ID-COMPONENT-executor[...]}) by component and the others (Netty,
 * transfer, JIT, GC) by name.
 */
final class ThreadCpu {
    private static final Pattern EXECUTOR = Pattern.compile("Thread-\\d+-(.*)");

    private ThreadCpu() {
    }

    /** One thread of a worker process, with its role ({@link #role}). */
    record WorkerThread(long pid, long tid, String role) {
    }

    /** Clock ticks of every thread of {@code pids} now (threads that have ended are not there). */
    static Map<WorkerThread, Long> ticksByThread(Collection<Long> pids) {
        Map<WorkerThread, Long> ticks = new HashMap<>();
        for (long pid : pids) {
            try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
                tasks.forEach(task -> {
                    try {
                        String stat = Files.readString(task.resolve("stat"));
                        String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                        ticks.put(new WorkerThread(pid, Long.parseLong(task.getFileName().toString()), role(comm)),
                            ProcFiles.cpuTicks(stat));
                    } catch (IOException threadEnded) {
                        // a thread that ended between listing and reading has nothing more to count
                    }
                });
            } catch (IOException processEnded) {
                // likewise for a worker that ended
            }
        }
        return ticks;
    }

    /**
     * Per role, the clock ticks its threads used between two readings: what each thread of {@code after} added since
     * {@code before}, all of its ticks for one that started in between. A thread that ended in between is left out:
     * what it used since {@code before} went with it, and a sum by role would read its earlier ticks as negative work
     * (the JVM stops the compiler threads it no longer needs). A thread renamed in between (a new role) counts as one
     * that started: its role is read from its name.
     */
    static Map<String, Long> usedByRole(Map<WorkerThread, Long> before, Map<WorkerThread, Long> after) {
        Map<String, Long> used = new HashMap<>();
        after.forEach((thread, ticks) -> used.merge(thread.role(), ticks - before.getOrDefault(thread, 0L), Long::sum));
        return used;
    }

    /** Per role, the CPU used over {@code seconds} ({@link #usedByRole}) in percent of one core, largest first; roles below 0.5 % left out. */
    static Map<String, Double> percentOfACore(Map<String, Long> usedByRole, double seconds) {
        Map<String, Double> percent = new LinkedHashMap<>();
        usedByRole.entrySet().stream()
            .map(e -> Map.entry(e.getKey(), 100.0 * e.getValue() / ProcFiles.CLOCK_TICKS_PER_SECOND / seconds))
            .filter(e -> e.getValue() >= 0.5)
            .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
            .forEach(e -> percent.put(e.getKey(), Math.rint(e.getValue() * 10) / 10));
        return percent;
    }

    /** A thread's role from its (truncated) name: the component of an executor, else the name without numbers. */
    static String role(String comm) {
        var executor = EXECUTOR.matcher(comm);
        if (executor.matches()) {
            String component = executor.group(1);
            if (isOf(component, BenchTopology.SPOUT)) {
                return "spout executor";
            }
            if (isOf(component, BenchTopology.MATCHER)) {
                return "matcher executors";
            }
            return "system executors";
        }
        return comm.replaceAll("\\d+", "N");
    }

    /** The truncated name part is the component id, cut short or followed by "-executor[...]". */
    private static boolean isOf(String namePart, String component) {
        return !namePart.isEmpty() && (component.startsWith(namePart) || namePart.startsWith(component));
    }
}
