package io.whale.distribution;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.examples.smoke.AckingTopology;
import io.whale.examples.smoke.AppendLog;
import io.whale.examples.smoke.PropertiesReport;
import io.whale.examples.smoke.RecordingBolt;
import io.whale.examples.smoke.ReliableIdSpout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A relay worker SIGKILLed on a cluster of four emulated hosts ({@code local-cluster up --hosts 4}), relay trees on
 * ({@code whale.multicast.structure: binomial}): a reliable spout broadcasts ids to recording bolt tasks in four
 * workers, one per host; the source's binomial tree over the three other workers has one relay with one child. The
 * test kills the relay and watches its child: it must keep receiving while the relay is down (the source sends it
 * its frames itself, as soon as its connection to the relay shows the failure), the relay must rejoin its tree once
 * its Supervisor restarts it, and in the end every id is acked and every acked id is on record in every bolt task.
 * {@code whale multicast} shows the source's tree.
 */
@SharedCluster.On(SharedCluster.Shape.FOUR_HOSTS)
class RelayRepairClusterIT {
    private static final String NAME = "relay-repair";
    private static final int HOSTS = 4;
    private static final int IDS = 6_000;
    private static final int TASKS = 8;
    private static final Pattern LAUNCH = Pattern.compile("Launching worker for " + NAME + "-\\S+ on (\\S+):(\\d+) with id");

    @Test
    void shouldSendAroundAKilledRelayUntilItsRestartRejoinsTheTreeAndLoseNoAckedId(PrivateLocalCluster cluster) throws Exception {
        Path dir = cluster.dir();
        Path reports = dir.resolve(NAME);

        cluster.submit(List.of(WorkerLogs.CONSOLE_METRICS, "whale.woc.enabled=true", "whale.multicast.structure=binomial"),
            AckingTopology.class.getName(), List.of("--name", NAME, "--ids", String.valueOf(IDS), "--rate", "150",
                "--parallelism", String.valueOf(TASKS), "--workers", String.valueOf(HOSTS), "--timeout-secs", "10",
                "--max-pending", "300", "--report-dir", reports.toString()));

        await("every task started, some ids acked, the source's tree logged").atMost(Duration.ofMinutes(3))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> latestPids(reports).size() == TASKS && acked(reports).size() >= IDS / 6
                && cluster.workerLogs(NAME).firstRelayEdge().isPresent());
        WorkerLogs.RelayEdge tree = cluster.workerLogs(NAME).firstRelayEdge().orElseThrow();
        String relay = tree.relay();
        String child = tree.child();
        Map<String, Path> slots = workerDirs(dir.resolve("logs"));
        long relayPid = pidIn(slots.get(relay));
        long childPid = pidIn(slots.get(child));
        Set<Integer> relayTasks = tasksIn(reports, relayPid);
        Set<Integer> childTasks = tasksIn(reports, childPid);
        assertFalse(relayTasks.isEmpty() || childTasks.isEmpty(), "bolt tasks in relay " + relay + " and child " + child);
        System.out.printf("source's tree: %s; killing relay %s (pid %d, tasks %s), watching its child %s (pid %d, tasks %s)%n",
            tree.tree(), relay, relayPid, relayTasks, child, childPid, childTasks);

        int childBefore = receivedCount(reports, childTasks);
        long emittedBeforeKill = Long.parseLong(spout(reports).getProperty("emitted"));
        assertTrue(emittedBeforeKill < IDS - 300, "the spout is near its last id before the kill: " + emittedBeforeKill);
        ProcessHandle victim = ProcessHandle.of(relayPid).orElseThrow();
        long killed = System.nanoTime();
        assertTrue(victim.destroyForcibly(), "SIGKILL to relay worker " + relayPid);
        victim.onExit().get();
        long[] childReceivedAt = {-1};
        await("the relay's tasks restarted").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(20)).until(() -> {
            if (childReceivedAt[0] < 0 && receivedCount(reports, childTasks) > childBefore) {
                childReceivedAt[0] = System.nanoTime();
            }
            return relayTasks.stream().allMatch(t -> latestPids(reports).get(t) != relayPid);
        });
        long restarted = System.nanoTime();
        assertTrue(childReceivedAt[0] > 0, "the relay's child received nothing while the relay was down");
        System.out.printf("relay's child received again %d ms after the kill; relay's tasks restarted after %d ms%n",
            (childReceivedAt[0] - killed) / 1_000_000, (restarted - killed) / 1_000_000);

        await("every id acked").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
            .until(() -> acked(reports).size() == IDS && Long.parseLong(spout(reports).getProperty("acked")) == IDS);
        Set<Integer> acked = acked(reports);
        for (int task : latestPids(reports).keySet()) {
            Set<Integer> received = ids(RecordingBolt.receivedLog(reports, task));
            Set<Integer> missing = acked.stream().filter(id -> !received.contains(id)).collect(Collectors.toCollection(TreeSet::new));
            assertTrue(missing.isEmpty(), "task " + task + " has no record of " + missing.size() + " acked ids, e.g. "
                + missing.stream().limit(10).toList());
        }

        Path exported = dir.resolve("multicast.json");
        WhaleCli.Result multicast = cluster.whale(Duration.ofMinutes(1), "--config", dir.resolve("conf/storm.yaml").toString(),
            "multicast", NAME, "--json", exported.toString());
        System.out.println(multicast.output());
        assertEquals(0, multicast.exit(), multicast.output());
        assertTrue(multicast.output().contains("(source, out-degree 2)"), "whale multicast shows the source's tree");
        JsonNode shown = new ObjectMapper().readTree(exported.toFile()).path("trees").get(0);
        assertEquals(AckingTopology.SPOUT, shown.path("component").asText());
        assertEquals(HOSTS - 1, shown.path("members").size(), "the three other workers: " + shown);
        assertEquals(2, shown.path("tree").path("maxOutDegree").asInt());

        WorkerLogs logs = cluster.workerLogs(NAME);
        assertTrue(logs.contains("Relay member " + relay + " cannot be reached"), "the source saw the relay go");
        assertTrue(logs.contains("Relay member " + relay + " is reachable again"), "the source saw the relay come back");
        await("the restarted relay forwards again").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1))
            .until(() -> forwardedSinceLastLaunch(slots.get(relay)) > 0);
        assertTrue(logs.lastCount("relay-repairs") > 0);
        assertEquals(0, logs.lastCount("woc-frames-malformed"));
        System.out.println("spout: " + new TreeMap<>(spout(reports)));
        cluster.killAndAwaitExit(NAME);
    }

    /** supervisor-id:port -> the worker's artifacts folder (worker.log, worker.pid), from each worker's launch line. */
    private static Map<String, Path> workerDirs(Path logs) throws IOException {
        Map<String, Path> dirs = new TreeMap<>();
        try (Stream<Path> files = Files.walk(logs)) {
            for (Path log : files.filter(f -> f.getFileName().toString().equals("worker.log")).toList()) {
                Matcher launch = LAUNCH.matcher(Files.readString(log));
                if (launch.find()) {
                    dirs.put(launch.group(1) + ":" + launch.group(2), log.getParent());
                }
            }
        }
        return dirs;
    }

    private static long pidIn(Path workerDir) throws IOException {
        assertNotNull(workerDir, "no worker log names this member");
        return Long.parseLong(Files.readString(workerDir.resolve("worker.pid")).trim());
    }

    /** relay-frames-forwarded as the console reporter last printed it after the worker's last launch. */
    private static long forwardedSinceLastLaunch(Path workerDir) throws IOException {
        String log = Files.readString(workerDir.resolve("worker.log"));
        Matcher launch = LAUNCH.matcher(log);
        int last = 0;
        while (launch.find()) {
            last = launch.start();
        }
        return new WorkerLogs(log.substring(last)).lastCountIfPrinted("relay-frames-forwarded");
    }

    private static Set<Integer> tasksIn(Path reports, long pid) {
        return latestPids(reports).entrySet().stream().filter(e -> e.getValue() == pid).map(Map.Entry::getKey)
            .collect(Collectors.toCollection(TreeSet::new));
    }

    private static int receivedCount(Path reports, Set<Integer> tasks) {
        return tasks.stream().mapToInt(t -> AppendLog.read(RecordingBolt.receivedLog(reports, t)).size()).sum();
    }

    private static Set<Integer> acked(Path reports) {
        Path log = reports.resolve(ReliableIdSpout.ACKED_LOG);
        return Files.exists(log) ? ids(log) : Set.of();
    }

    private static Set<Integer> ids(Path log) {
        return AppendLog.read(log).stream().map(Integer::valueOf).collect(Collectors.toSet());
    }

    private static java.util.Properties spout(Path reports) {
        return PropertiesReport.read(reports.resolve(ReliableIdSpout.REPORT));
    }

    /** Bolt task id -> the pid of the worker it last started in. */
    private static Map<Integer, Long> latestPids(Path reports) {
        if (!Files.isDirectory(reports)) {
            return Map.of();
        }
        try (Stream<Path> files = Files.list(reports)) {
            Map<Integer, Long> pids = new TreeMap<>();
            for (Path f : files.filter(f -> f.getFileName().toString().matches("pids-\\d+\\.log")).toList()) {
                String name = f.getFileName().toString();
                List<String> started = AppendLog.read(f);
                if (!started.isEmpty()) {
                    pids.put(Integer.parseInt(name.substring(5, name.length() - 4)), Long.valueOf(started.get(started.size() - 1)));
                }
            }
            return pids;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
