package io.whale.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/** What a cluster of emulated hosts leaves on the machine: its namespaces, the links here, its processes. */
final class EmulatedHosts {
    private EmulatedHosts() {
    }

    /** Root can create network namespaces, bridges and veth links. */
    static boolean available() {
        try {
            // named after this JVM, so that two test runs on one machine never use the same name
            String probe = "whale-it-probe-" + ProcessHandle.current().pid();
            Process p = new ProcessBuilder("bash", "-c", "ip netns add " + probe + " && ip -n " + probe + " link add name wprobe type bridge; "
                + "r=$?; ip netns del " + probe + "; exit $r").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** The namespace names the cluster in {@code dir} recorded at up (hosts.properties). */
    static List<String> recordedNamespaces(Path dir) throws IOException {
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(dir.resolve("hosts.properties"))) {
            p.load(in);
        }
        String id = p.getProperty("cluster.id");
        return IntStream.rangeClosed(0, Integer.parseInt(p.getProperty("hosts"))).mapToObj(h -> "whale-" + id + "-h" + h).toList();
    }

    static boolean namespaceExists(String name) {
        return Files.exists(Path.of("/run/netns", name));
    }

    /** The bytes the interface received and sent, as {@code ip -j -s link} counts them: {rx, tx}. */
    static long[] counters(String namespace, String device) throws IOException, InterruptedException {
        WhaleCli.Result ip = WhaleCli.run(Duration.ofSeconds(20), Map.of(),
            List.of("ip", "-n", namespace, "-j", "-s", "link", "show", "dev", device));
        JsonNode stats = new ObjectMapper().readTree(ip.output()).path(0).path("stats64");
        return new long[] {stats.path("rx").path("bytes").asLong(-1), stats.path("tx").path("bytes").asLong(-1)};
    }

    /** The interfaces of this process's network namespace, which up --hosts must leave as they were. */
    static Set<String> linksHere() throws IOException {
        try (Stream<Path> links = Files.list(Path.of("/sys/class/net"))) {
            return links.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** The CPU control group a process is in, as {@code /proc/PID/cgroup} names it (v1's cpu controller, else v2's). */
    static String cpuGroupOf(long pid) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc/" + pid + "/cgroup"));
        return lines.stream().map(l -> l.split(":", 3)).filter(f -> List.of(f[1].split(",")).contains("cpu")).map(f -> f[2]).findFirst()
            .orElseGet(() -> lines.stream().filter(l -> l.startsWith("0::")).map(l -> l.substring(3)).findFirst().orElse("?"));
    }

    /** Whether a CPU control group of that name is left under the machine's cgroup mounts (v1 or v2). */
    static boolean cpuGroupExists(String name) {
        return Stream.of("cpu", "cpuacct", "", "unified").anyMatch(root -> Files.isDirectory(Path.of("/sys/fs/cgroup", root, name)));
    }

    /** Live processes whose command line names the cluster's folder (its daemons, their workers). */
    static List<Long> processesOf(Path dir) {
        return ProcessHandle.allProcesses()
            .filter(p -> p.info().commandLine().orElse("").contains(dir.toString()))
            .map(ProcessHandle::pid).toList();
    }
}
