package io.whale.distribution;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.whale.examples.smoke.SmokeReports;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * One cluster of three emulated hosts ({@code local-cluster up --hosts 3 --link-mbit 20 --host-cpus 1}), driven step by
 * step as an operator would: the hosts, their shaped links and CPU control groups, a bulk transfer through a link, the
 * all-grouping smoke topology across hosts, a partition and its heal, a partition beside a WOC relay chain, a killed
 * host, and {@code down}. Nimbus's timeouts are shortened (through {@code -c} on {@code up}) so that a dead host is
 * noticed within the test's time: 20 s without heartbeats (longer than a partition here), and 45 s instead of 120 s
 * of grace for a newly assigned worker, during which Nimbus takes its executors for alive.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EmulatedHostsClusterIT {
    private static final int HOSTS = 3;
    private static final int MBIT = 20;
    private static final double HOST_CPUS = 1;
    private static final int TUPLES = 200;
    private static final int TASKS = 4;
    private static final String TOPOLOGY = "hosts-smoke";
    private static final String STALL_TOPOLOGY = "hosts-stall";
    private static final int STALL_TASKS = 6;
    /** Numbers per second the stall tests' spout emits. */
    private static final int STALL_RATE = 50;

    private final Path dir = Path.of("target/hosts-cluster").toAbsolutePath();
    private final Path reports = dir.resolve("smoke-report");
    private PrivateLocalCluster cluster;
    private Set<String> linksBefore;

    @BeforeAll
    void up() throws Exception {
        assumeTrue(EmulatedHosts.available(), "needs root for network namespaces (ip netns, bridges, veth links)");
        linksBefore = EmulatedHosts.linksHere();
        // Nimbus moves a partitioned host's workers only after 20 s: the partitions below (10 s) leave the workers where
        // they are, so that each measures the same placement it found, while a killed host's worker moves (Order 10).
        cluster = PrivateLocalCluster.upHosts(dir, HOSTS, MBIT, List.of("nimbus.task.timeout.secs=20", "nimbus.supervisor.timeout.secs=20",
            "nimbus.task.launch.secs=45"), List.of("--host-cpus", String.valueOf(HOST_CPUS)));
    }

    @AfterAll
    void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void shouldGiveEachHostItsOwnNamespaceAddressAndShapedLinkAndLeaveTheMachinesNamespaceAlone() throws Exception {
        JsonNode status = cluster.status();

        assertTrue(status.path("up").asBoolean(), status.toPrettyString());
        assertEquals(HOSTS + 1, status.path("hosts").size());
        String subnet = status.path("subnet").asText();
        assertTrue(subnet.matches("10\\.213\\.\\d+\\.0/24"), subnet);
        for (JsonNode host : status.path("hosts")) {
            int h = host.path("host").asInt();
            String ns = host.path("namespace").asText();
            assertTrue(EmulatedHosts.namespaceExists(ns), ns);
            assertEquals(subnet.replace("0/24", String.valueOf(10 + h)), host.path("address").asText());
            host.path("daemonPids").forEach(pid -> assertTrue(pid.isNumber(), "every daemon runs: " + host));
            assertEquals(HOST_CPUS, host.path("cpus").asDouble(), host.toString());
            assertTrue(host.path("cpuSeconds").asDouble() > 0, "host " + h + "'s daemons used CPU, counted in its group: " + host);
            for (JsonNode pid : host.path("daemonPids")) {
                assertEquals("/" + ns, EmulatedHosts.cpuGroupOf(pid.asLong()), "daemon " + pid + " runs in host " + h + "'s CPU group");
            }
            if (h > 0) {
                assertEquals(MBIT, host.path("linkMbit").asInt());
                assertTrue(tc(ns, "wlink").contains("tbf") && tc(ns, "wlink").contains("rate 20Mbit"), "what host " + h + " sends is shaped");
                String bridgeNs = status.path("hosts").path(0).path("namespace").asText();
                assertTrue(tc(bridgeNs, "wport" + h).contains("rate 20Mbit"), "what host " + h + " receives is shaped");
            }
        }
        assertEquals(HOSTS, status.path("supervisors").size());
        assertEquals(linksBefore, EmulatedHosts.linksHere(), "nothing was added to the machine's own namespace");
    }

    @Test
    @Order(2)
    void shouldCarryNoMoreThanTheLinkRateBetweenTwoHosts() throws Exception {
        JsonNode before = cluster.status();
        long bytes = 5_000_000;

        double mbit = transfer(before, 2, 3, bytes);

        System.out.printf("bulk transfer of %d bytes host 2 -> host 3 through %d Mbit/s links: %.2f Mbit/s%n", bytes, MBIT, mbit);
        assertTrue(mbit <= 1.15 * MBIT, mbit + " Mbit/s through a " + MBIT + " Mbit/s link");
        assertTrue(mbit >= 0.5 * MBIT, mbit + " Mbit/s: far below the link's rate");
        JsonNode after = cluster.status();
        assertTrue(delta(before, after, 2, "txBytes") >= bytes, "host 2's counters show what it sent");
        assertTrue(delta(before, after, 3, "rxBytes") >= bytes, "host 3's counters show what it received");
        assertTrue(delta(before, after, 1, "rxBytes") < bytes / 10, "host 1 is not on the path: " + delta(before, after, 1, "rxBytes"));
    }

    @Test
    @Order(3)
    void shouldFollowALinkRateChangedLive() throws Exception {
        int slow = 5;
        try {
            assertTrue(cluster.fault(3, "slow", String.valueOf(slow)).contains("link shaped to 5 Mbit/s in both directions"));
            JsonNode status = cluster.status();
            assertEquals(slow, host(status, 3).path("linkMbit").asInt());

            double mbit = transfer(status, 2, 3, 1_500_000);

            System.out.printf("bulk transfer host 2 -> host 3 after fault 3 slow %d: %.2f Mbit/s%n", slow, mbit);
            assertTrue(mbit <= 1.15 * slow && mbit >= 0.5 * slow, mbit + " Mbit/s through a link slowed to " + slow + " Mbit/s");
        } finally {
            cluster.fault(3, "slow", String.valueOf(MBIT));
        }
    }

    @Test
    @Order(4)
    void shouldRunTheSmokeTopologyAcrossHostsOverTheBridge() throws Exception {
        cluster.submit(List.of(), "io.whale.examples.smoke.SmokeTopology", List.of("--name", TOPOLOGY, "--tuples", String.valueOf(TUPLES),
            "--parallelism", String.valueOf(TASKS), "--workers", "2", "--rate", "100", "--report-dir", reports.toString()));

        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(2))
            .until(() -> SmokeReports.read(reports).allComplete(TASKS));
        JsonNode status = cluster.status();
        SmokeReports smoke = SmokeReports.read(reports);
        Map<Long, Integer> hostOfWorker = workerHosts(status);
        Set<Integer> workerHosts = new TreeSet<>();
        for (long pid : smoke.workerPids()) {
            assertTrue(hostOfWorker.containsKey(pid), "worker " + pid + " is on no host's list: " + hostOfWorker);
            workerHosts.add(hostOfWorker.get(pid));
            assertEquals("/" + host(status, hostOfWorker.get(pid)).path("namespace").asText(), EmulatedHosts.cpuGroupOf(pid),
                "worker " + pid + " runs in its host's CPU group, as its Supervisor");
        }
        assertEquals(2, workerHosts.size(), "the two workers run on two different hosts: " + hostOfWorker);
        for (SmokeReports.Task task : smoke.tasks()) {
            int own = hostOfWorker.get(task.pid());
            int other = workerHosts.stream().filter(h -> h != own).findFirst().orElseThrow();
            assertFalse(task.peers().contains("127.0.0.1"), "no worker connection goes to loopback: " + task);
            assertTrue(task.peers().contains(host(status, other).path("address").asText()),
                "task " + task.task() + " on host " + own + " is connected to the other worker's host " + other + ": " + task.peers());
            // A connection to the worker's own host address may show too: each heartbeat second the worker opens a
            // Thrift connection to its own Supervisor (Storm's Worker.heartbeatToMasterIfLocalbeatFail).
            for (String peer : task.peers()) {
                assertTrue(peer.startsWith(status.path("subnet").asText().replace("0/24", "")), "a bridge address: " + peer);
            }
        }
        for (int h : workerHosts) {
            long[] start = EmulatedHosts.counters(host(status, h).path("namespace").asText(), "wlink");
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                long[] now = EmulatedHosts.counters(host(status, h).path("namespace").asText(), "wlink");
                return now[0] > start[0] + 10_000 && now[1] > start[1] + 10_000;
            });
        }
    }

    @Test
    @Order(5)
    void shouldCarryNothingWhilePartitionedAndResumeDeliveryAfterHeal() throws Exception {
        JsonNode status = cluster.status();
        long worker = SmokeReports.read(reports).tasks().get(0).pid();
        int cut = workerHosts(status).get(worker);
        String ns = host(status, cut).path("namespace").asText();

        Map<Integer, Long> receivedAtHeal;
        try {
            assertTrue(cluster.fault(cut, "partition").contains("host " + cut + " (" + host(status, cut).path("address").asText() + "): partitioned"));
            long[] atCut = EmulatedHosts.counters(ns, "wlink");
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertArrayEquals(atCut, EmulatedHosts.counters(ns, "wlink"), "bytes received, sent while partitioned"));
            assertTrue(host(cluster.status(), cut).path("partitioned").asBoolean());
            receivedAtHeal = received(worker);
        } finally {
            cluster.fault(cut, "heal");
        }

        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            Map<Integer, Long> now = received(worker);
            receivedAtHeal.forEach((task, count) -> assertTrue(now.get(task) > count, "task " + task + " on the healed host receives again"));
        });
        assertFalse(host(cluster.status(), cut).path("partitioned").asBoolean());
    }

    /**
     * Issue 37, with WOC on and a relay chain (d* = 1) over three workers on three hosts. The chain's last worker is
     * killed: restarted, its first tuple comes within 1 s of its task's prepare (the relay member in front of it
     * refreshes its connections when a frame names it, not at its next 10-s refresh). Then the last worker's host is
     * partitioned: the relay sends around it — its forwards get no credit for whale.woc.stall.ms (its default, 2 s), what
     * it owed is settled, and meanwhile it beats to the source so that the source does not send around the relay too: the
     * relay's own tasks keep receiving. Then the relay's host is partitioned: it holds back only its own deliveries — the
     * source's window to it gets no credit or beat for the bound, its frames are dropped, counted, instead of holding the
     * spout's executor, and the source sends its child its frames.
     */
    @Test
    @Order(6)
    void shouldReachARestartedWorkerWithinASecondAndKeepDeliveringToTheOthersWhileOneHostIsPartitioned() throws Exception {
        Path stallReports = dir.resolve("stall-report");
        cluster.submit(List.of("whale.woc.enabled=true", "whale.multicast.structure=nonblocking", "whale.multicast.max.outdegree=1",
                "topology.message.timeout.secs=5"),
            "io.whale.examples.smoke.SmokeTopology", List.of("--name", STALL_TOPOLOGY, "--tuples", String.valueOf(TUPLES),
                "--parallelism", String.valueOf(STALL_TASKS), "--workers", "3", "--rate", String.valueOf(STALL_RATE), "--report-dir", stallReports.toString()));
        try {
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(2))
                .until(() -> SmokeReports.read(stallReports).allComplete(STALL_TASKS));
            WorkerLogs.RelayEdge edge = cluster.workerLogs(STALL_TOPOLOGY).firstRelayEdge().orElseThrow();
            long victim = SmokeReports.read(stallReports).tasks().stream().filter(t -> t.workerPort() == edge.childPort())
                .findFirst().orElseThrow().pid();
            System.out.printf("the source's tree: %s; killing the relay's child %s (worker %d)%n", edge.tree(), edge.child(), victim);
            long killedMillis = System.currentTimeMillis();
            assertTrue(ProcessHandle.of(victim).orElseThrow().destroyForcibly(), "SIGKILL worker " + victim);
            SmokeReports.Task restarted = await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                .until(() -> SmokeReports.read(stallReports).tasks().stream()
                    .filter(t -> t.preparedMillis() > killedMillis && t.firstTupleMillis() > 0).findFirst(), Optional::isPresent)
                .orElseThrow();
            System.out.printf("worker %d killed; task %d restarted in worker %d received its first tuple %d ms after it was prepared%n",
                victim, restarted.task(), restarted.pid(), restarted.firstTupleMillis() - restarted.preparedMillis());
            assertTrue(restarted.firstTupleMillis() - restarted.preparedMillis() <= 1_000, "a restarted relay member is connected to "
                + "before frames go through it: its first tuple " + (restarted.firstTupleMillis() - restarted.preparedMillis())
                + " ms after its task was prepared");

            Placement placed = awaitPlaced(stallReports, Duration.ofMinutes(1));
            assertTheOthersKeepReceivingWhilePartitioned(List.of(new Watched(STALL_TOPOLOGY, stallReports, placed)),
                hostOfWorker(placed, edge.childPort(), edge.child()));
            int relayPort = Integer.parseInt(edge.relay().substring(edge.relay().lastIndexOf(':') + 1));
            awaitReplaysDone(stallReports);
            Placement again = awaitPlaced(stallReports, Duration.ofMinutes(1));
            assertTheOthersKeepReceivingWhilePartitioned(List.of(new Watched(STALL_TOPOLOGY, stallReports, again)),
                hostOfWorker(again, relayPort, edge.relay()));
        } finally {
            cluster.kill(STALL_TOPOLOGY);
        }
    }

    /**
     * Issue 37 for every structure over both transports (the relay chain above is nonblocking over Netty): one
     * destination host partitioned for 10 s holds back only its own deliveries. The two transports of a structure run
     * side by side, one topology each, and one host is cut under both.
     */
    @Test
    @Order(7)
    void shouldKeepDeliveringToTheOthersWhileADestinationHostIsPartitionedSequentialOverNettyAndRdma() throws Exception {
        partitionADestinationHost("sequential", List.of());
    }

    @Test
    @Order(8)
    void shouldKeepDeliveringToTheOthersWhileADestinationHostIsPartitionedAlongABinomialTreeOverNettyAndRdma() throws Exception {
        partitionADestinationHost("binomial", List.of());
    }

    @Test
    @Order(9)
    void shouldKeepDeliveringToTheOthersWhileADestinationHostIsPartitionedAlongTheLiveTreeOverNettyAndRdma() throws Exception {
        partitionADestinationHost("nonblocking", List.of("whale.multicast.max.outdegree=auto"));
    }

    private void partitionADestinationHost(String structure, List<String> settings) throws Exception {
        List<String> submitted = new ArrayList<>();
        List<Watched> placed = new ArrayList<>();
        try {
            for (String transport : List.of("netty", "rdma")) {
                String name = "hosts-cut-" + structure + "-" + transport;
                Path cutReports = dir.resolve(name);
                List<String> conf = new ArrayList<>(List.of("whale.woc.enabled=true", "whale.multicast.structure=" + structure,
                    "whale.transport=" + transport, "topology.message.timeout.secs=5"));
                conf.addAll(settings);
                submitted.add(name);
                cluster.submit(conf, "io.whale.examples.smoke.SmokeTopology", List.of("--name", name, "--tuples", String.valueOf(TUPLES),
                    "--parallelism", String.valueOf(STALL_TASKS), "--workers", "3", "--rate", String.valueOf(STALL_RATE), "--report-dir",
                    cutReports.toString()));
                // one topology's workers start at a time: six JVMs starting at once on hosts of one core each can outlast
                // Nimbus's launch grace here (45 s), and Nimbus then moves them again and again
                placed.add(new Watched(name, cutReports, awaitPlaced(cutReports, Duration.ofMinutes(3))));
            }
            // a host that runs tasks of both and neither's spout: two spouts leave at least one of the three hosts, and
            // Storm's even scheduler spreads a topology's workers over the hosts with free slots
            int cut = placed.get(0).placed().tasks().stream().map(placed.get(0).placed()::hostOf).distinct().sorted()
                .filter(h -> placed.stream().allMatch(w -> w.placed().spoutHost() != h
                    && w.placed().tasks().stream().anyMatch(t -> w.placed().hostOf(t) == h)))
                .findFirst().orElseThrow(() -> new AssertionError("no host runs tasks of every topology and none's spout: " + placed));
            assertTheOthersKeepReceivingWhilePartitioned(placed, cut);
        } finally {
            for (String name : submitted) {
                cluster.kill(name);
            }
        }
    }

    /** A smoke topology watched through a partition: its name, its reports and where its tasks run. */
    private record Watched(String name, Path reports, Placement placed) {
    }

    /** Where a smoke topology's tasks run, once every task has reported and every reported worker is on a host. */
    private record Placement(Map<Long, Integer> hostOfWorker, List<SmokeReports.Task> tasks, int spoutHost) {
        int hostOf(SmokeReports.Task task) {
            return hostOfWorker.get(task.pid());
        }
    }

    /** Reports and hosts read together, so that every task's worker is on a host of the same reading. */
    private Placement awaitPlaced(Path reports, Duration atMost) {
        return await().atMost(atMost).pollInterval(Duration.ofSeconds(1)).until(() -> {
            SmokeReports now = SmokeReports.read(reports);
            Map<Long, Integer> hostOfWorker = workerHosts(cluster.status());
            if (!now.allComplete(STALL_TASKS) || !hostOfWorker.keySet().containsAll(now.workerPids())) {
                return Optional.<Placement>empty();
            }
            int spoutHost = now.tasks().stream().filter(SmokeReports.Task::spoutHere).map(t -> hostOfWorker.get(t.pid())).findFirst().orElseThrow();
            return Optional.of(new Placement(hostOfWorker, now.tasks(), spoutHost));
        }, Optional::isPresent).orElseThrow();
    }

    /**
     * Waits until no task has received more than 1.5 times the spout's rate in any 2 s of the last 12 s: the acker's
     * replays of what a partition lost (timed out 5 to 10 s after) are done. A task still under Storm's backpressure from
     * them when its host is cut keeps that state for the whole partition (its next status cannot arrive), and a worker
     * under backpressure is slow, not stalled.
     */
    private static void awaitReplaysDone(Path reports) {
        AtomicReference<Map<Integer, Long>> last = new AtomicReference<>();
        await("the replays after the heal done").atMost(Duration.ofMinutes(2)).during(Duration.ofSeconds(12))
            .pollInterval(Duration.ofSeconds(2)).until(() -> {
            Map<Integer, Long> now = new TreeMap<>();
            SmokeReports.read(reports).tasks().forEach(t -> now.put(t.task(), t.received()));
            Map<Integer, Long> before = last.getAndSet(now);
            return before != null && before.keySet().equals(now.keySet())
                && now.entrySet().stream().allMatch(e -> e.getValue() - before.get(e.getKey()) <= STALL_RATE * 2 * 3 / 2);
        });
    }

    /** The host of the worker on {@code port} ({@code worker} names it in messages), from where its tasks run. */
    private static int hostOfWorker(Placement placed, int port, String worker) {
        return placed.tasks().stream().filter(t -> t.workerPort() == port).map(placed::hostOf).findFirst()
            .orElseThrow(() -> new AssertionError("no task in worker " + worker + ": " + placed.tasks()));
    }

    /**
     * Partitions host {@code cut} for 10 s and asserts that the tasks of every other host receive at least half of what
     * they received in the 10 s before, in each topology watched: the window or the relay's forwards to the cut host
     * stall after whale.woc.stall.ms (2 s by default), its frames are dropped, counted, instead of holding the spout's
     * executor or anything sent beside, and a relay's children get their frames from its parent.
     */
    private void assertTheOthersKeepReceivingWhilePartitioned(List<Watched> watched, int cut) throws Exception {
        Map<String, Map<Integer, Set<Integer>>> keptByHost = new TreeMap<>();
        for (Watched w : watched) {
            Map<Integer, Set<Integer>> kept = keptByHost.computeIfAbsent(w.name(), n -> new TreeMap<>());
            w.placed().tasks().stream().filter(t -> w.placed().hostOf(t) != cut)
                .forEach(t -> kept.computeIfAbsent(w.placed().hostOf(t), h -> new TreeSet<>()).add(t.task()));
        }
        Map<String, Map<Integer, Long>> before = receivedByHost(watched, keptByHost);
        await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofSeconds(1))
            .until(() -> watched.stream().allMatch(w -> SmokeReports.read(w.reports()).tasks().size() == STALL_TASKS));
        Map<String, Map<Integer, Long>> atCut = receivedByHost(watched, keptByHost);
        String ns = host(cluster.status(), cut).path("namespace").asText();
        try {
            assertTrue(cluster.fault(cut, "partition").contains("partitioned"));
            long[] cutAt = EmulatedHosts.counters(ns, "wlink");
            await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertArrayEquals(cutAt, EmulatedHosts.counters(ns, "wlink"), "the cut host carries nothing"));
        } finally {
            cluster.fault(cut, "heal");
        }
        Map<String, Map<Integer, Long>> atHeal = receivedByHost(watched, keptByHost);

        for (Watched w : watched) {
            for (Map.Entry<Integer, Set<Integer>> host : keptByHost.get(w.name()).entrySet()) {
                long earlier = atCut.get(w.name()).get(host.getKey()) - before.get(w.name()).get(host.getKey());
                long during = atHeal.get(w.name()).get(host.getKey()) - atCut.get(w.name()).get(host.getKey());
                System.out.printf("%s: host %d partitioned 10 s (spout on host %d): host %d's tasks %s received %d in the 10 s before, %d during%n",
                    w.name(), cut, w.placed().spoutHost(), host.getKey(), host.getValue(), earlier, during);
                assertTrue(earlier > 0, w.name() + ": tasks " + host.getValue() + " received nothing in the 10 s before the partition");
                assertTrue(during >= earlier / 2, w.name() + ": tasks " + host.getValue() + " on host " + host.getKey()
                    + ", off the cut host " + cut + ", received " + during + " during the partition, " + earlier + " in as long before it");
            }
        }
    }

    private static Map<String, Map<Integer, Long>> receivedByHost(List<Watched> watched, Map<String, Map<Integer, Set<Integer>>> tasksByHost) {
        Map<String, Map<Integer, Long>> received = new TreeMap<>();
        for (Watched w : watched) {
            Map<Integer, Long> byHost = new TreeMap<>();
            tasksByHost.get(w.name()).forEach((host, tasks) -> byHost.put(host, receivedBy(w.reports(), tasks)));
            received.put(w.name(), byHost);
        }
        return received;
    }

    /** Deliveries so far to {@code tasks}, from their reports. */
    private static long receivedBy(Path reports, Set<Integer> tasks) {
        return SmokeReports.read(reports).tasks().stream().filter(t -> tasks.contains(t.task())).mapToLong(SmokeReports.Task::received).sum();
    }

    @Test
    @Order(10)
    void shouldRestartAKilledHostsWorkerOnAnotherHostAndKeepDelivering() throws Exception {
        // Every worker runs on a live host (reports name a new worker within a second of its start; none for 5 s).
        await().atMost(Duration.ofMinutes(2)).during(Duration.ofSeconds(5)).pollInterval(Duration.ofSeconds(1))
            .until(() -> workerHosts(cluster.status()).keySet().containsAll(SmokeReports.read(reports).workerPids()));
        JsonNode status = cluster.status();
        long victim = SmokeReports.read(reports).tasks().get(0).pid();
        assertTrue(workerHosts(status).containsKey(victim), "worker " + victim + " runs on a host: " + status.path("hosts"));
        int killed = workerHosts(status).get(victim);

        String out = cluster.fault(killed, "kill");

        assertTrue(out.contains("killed with SIGKILL: supervisor-" + killed), out);
        assertFalse(ProcessHandle.of(victim).map(ProcessHandle::isAlive).orElse(false), "the host's worker died with it");
        assertTrue(host(cluster.status(), killed).path("daemonPids").path("supervisor-" + killed).isNull());
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(3)).untilAsserted(() -> {
            SmokeReports now = SmokeReports.read(reports);
            Map<Long, Integer> hosts = workerHosts(cluster.status());
            for (SmokeReports.Task task : now.tasks()) {
                assertTrue(hosts.containsKey(task.pid()), "task " + task.task() + " runs in a live worker: " + task + " " + hosts);
                assertNotEquals(killed, hosts.get(task.pid()), "no task runs on the killed host");
                assertEquals(TUPLES, task.distinct(), "task " + task.task() + " has every number again");
            }
            assertTrue(now.workerPids().size() == 2 && !now.workerPids().contains(victim), "the killed worker was restarted: " + now.workerPids());
        });
        // a restarted task counts from 0 again, and both workers may have been on the killed host: every task's own
        // count from here on shows that deliveries go on
        Map<Integer, Long> restarted = new HashMap<>();
        SmokeReports.read(reports).tasks().forEach(t -> restarted.put(t.task(), t.received()));
        await("deliveries to every task go on").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1)).until(() ->
            SmokeReports.read(reports).tasks().stream().allMatch(t -> t.received() > restarted.getOrDefault(t.task(), Long.MAX_VALUE)));
    }

    @Test
    @Order(11)
    void shouldLeaveNoNamespaceLinkOrProcessBehindOnDownAndDoNothingOnASecondDown() throws Exception {
        List<String> namespaces = EmulatedHosts.recordedNamespaces(dir);
        Set<Long> workers = SmokeReports.read(reports).workerPids();

        WhaleCli.Result down = cluster.whale(Duration.ofMinutes(2), "local-cluster", "down", "--dir", dir.toString());
        System.out.println(down.output());

        assertEquals(0, down.exit(), down.output());
        for (String ns : namespaces) {
            assertFalse(EmulatedHosts.namespaceExists(ns), ns + " was removed");
            assertFalse(EmulatedHosts.cpuGroupExists(ns), "CPU control group " + ns + " was removed");
        }
        assertEquals(linksBefore, EmulatedHosts.linksHere(), "no veth or bridge is left in the machine's namespace");
        assertEquals(List.of(), EmulatedHosts.processesOf(dir), "no daemon or worker is left");
        for (long pid : workers) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "worker " + pid + " outlived down");
        }
        WhaleCli.Result status = cluster.whale(Duration.ofMinutes(1), "local-cluster", "status", "--dir", dir.toString());
        assertEquals(3, status.exit(), status.output());
        assertTrue(status.output().contains("does not exist: the cluster is down"), status.output());
        WhaleCli.Result again = cluster.whale(Duration.ofMinutes(1), "local-cluster", "down", "--dir", dir.toString());
        assertEquals(0, again.exit(), again.output());
        assertFalse(again.output().contains(" stopped") || again.output().matches("(?s).*namespace \\S+ removed.*"),
            "a second down does nothing:\n" + again.output());
    }

    /** A bulk transfer of {@code bytes} from one host to another; the rate the receiver measured, in Mbit/s. */
    private static double transfer(JsonNode status, int from, int to, long bytes) throws Exception {
        Process receiver = new ProcessBuilder(inNamespace(host(status, to).path("namespace").asText(), "receive", "17000", String.valueOf(bytes)))
            .redirectErrorStream(true).start();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(receiver.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("listening", lines.readLine());
            WhaleCli.Result sent = WhaleCli.run(Duration.ofMinutes(1), Map.of(), inNamespace(host(status, from).path("namespace").asText(),
                "send", host(status, to).path("address").asText(), "17000", String.valueOf(bytes)));
            assertEquals(0, sent.exit(), sent.output());
            String result = lines.readLine();
            assertTrue(receiver.waitFor(30, TimeUnit.SECONDS));
            assertTrue(result != null && result.startsWith("bits/s "), "receiver: " + result);
            return Long.parseLong(result.substring(7)) / 1e6;
        } finally {
            receiver.destroyForcibly();
        }
    }

    private static JsonNode host(JsonNode status, int host) {
        return status.path("hosts").path(host);
    }

    private static long delta(JsonNode before, JsonNode after, int host, String counter) {
        return host(after, host).path(counter).asLong() - host(before, host).path(counter).asLong();
    }

    /** Worker pid -> the host it runs on, from status --json. */
    private static Map<Long, Integer> workerHosts(JsonNode status) {
        Map<Long, Integer> hosts = new HashMap<>();
        for (JsonNode host : status.path("hosts")) {
            host.path("workerPids").forEach(pid -> hosts.put(pid.asLong(), host.path("host").asInt()));
        }
        return hosts;
    }

    /** Task -> deliveries so far, for the tasks in one worker. */
    private Map<Integer, Long> received(long workerPid) {
        Map<Integer, Long> counts = new HashMap<>();
        SmokeReports.read(reports).tasks().stream().filter(t -> t.pid() == workerPid).forEach(t -> counts.put(t.task(), t.received()));
        return counts;
    }

    private static String tc(String namespace, String device) throws Exception {
        return WhaleCli.run(Duration.ofSeconds(20), Map.of(), List.of("tc", "-n", namespace, "qdisc", "show", "dev", device)).output();
    }

    /** {@code java BulkTransfer ARGS} inside an emulated host. */
    private static List<String> inNamespace(String namespace, String... args) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classes = Path.of(BulkTransfer.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace, java, "-cp", classes, BulkTransfer.class.getName()));
        command.addAll(List.of(args));
        return command;
    }
}
