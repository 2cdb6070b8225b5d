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

    /** Clock ticks by role over every thread of {@code pids} now (threads that have ended are not counted). */
    static Map<String, Long> ticksByRole(Collection<Long> pids) {
        Map<String, Long> ticks = new HashMap<>();
        for (long pid : pids) {
            try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
                tasks.forEach(task -> {
                    try {
                        String stat = Files.readString(task.resolve("stat"));
                        String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                        ticks.merge(role(comm), ProcFiles.cpuTicks(stat), Long::sum);
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

    /** Per role, the CPU used between two readings in percent of one core, largest first; roles below 0.5 % left out. */
    static Map<String, Double> percentOfACore(Map<String, Long> before, Map<String, Long> after, double seconds) {
        Map<String, Double> percent = new LinkedHashMap<>();
        after.entrySet().stream()
            .map(e -> Map.entry(e.getKey(), 100.0 * (e.getValue() - before.getOrDefault(e.getKey(), 0L))
                / ProcFiles.CLOCK_TICKS_PER_SECOND / seconds))
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
