package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.module.ModuleDescriptor.Version;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The home is laid out as Storm's binary release, with the patched client in place of upstream's. */
class DistributionLayoutIT {
    private static final Path HOME = WhaleCli.HOME;
    private static final String VERSION = System.getProperty("whale.version");

    @Test
    void hasStormsLayout() {
        for (String entry : List.of("bin/whale", "conf/storm.yaml", "log4j2/cluster.xml", "log4j2/worker.xml", "lib",
            "lib-worker", "lib-tools", "extlib", "extlib-daemon", "examples/whale-example-smoke.jar",
            "examples/whale-example-ridehailing.jar", "examples/whale-example-stock.jar")) {
            assertTrue(Files.exists(HOME.resolve(entry)), "missing " + entry);
        }
        assertTrue(Files.isExecutable(HOME.resolve("bin/whale")));
    }

    @Test
    void workersGetThePatchedClientAndNoDaemonCode() throws IOException {
        Set<String> worker = jars("lib-worker");
        assertTrue(worker.contains("storm-client-" + VERSION + ".jar"), worker.toString());
        assertFalse(worker.contains("storm-client-2.8.3.jar"), "upstream client must not shadow the patched one");
        assertTrue(worker.stream().noneMatch(j -> j.startsWith("storm-server") || j.startsWith("storm-core")), worker.toString());
        assertTrue(worker.contains("storm-shaded-deps-" + VERSION + ".jar") && worker.stream().anyMatch(j -> j.startsWith("kryo-")), worker.toString());
        assertFalse(worker.contains("storm-shaded-deps-2.8.3.jar"), "upstream's shaded libraries must not shadow Whale's");
    }

    @Test
    void workersGetTheMulticastTreesWithoutTheSimulatorsLibraries() throws IOException {
        Set<String> worker = jars("lib-worker");
        assertTrue(worker.contains("whale-multicast-" + VERSION + ".jar"), worker.toString());
        assertTrue(worker.stream().noneMatch(j -> j.startsWith("xchart") || j.startsWith("HdrHistogram")
            || j.startsWith("jackson-databind")), worker.toString());
    }

    @Test
    void daemonsGetThePatchedServerOnThePatchedClient() throws IOException {
        Set<String> lib = jars("lib");
        assertTrue(lib.containsAll(Set.of("storm-server-" + VERSION + ".jar", "storm-core-2.8.3.jar", "storm-client-" + VERSION + ".jar")), lib.toString());
        assertFalse(lib.contains("storm-client-2.8.3.jar"), "upstream client must not shadow the patched one");
        assertFalse(lib.contains("storm-server-2.8.3.jar"), "upstream server must not shadow the patched one");
        assertTrue(lib.stream().noneMatch(j -> j.contains("clojure") || j.contains("reload4j")), lib.toString());
        assertTrue(lib.stream().noneMatch(j -> j.endsWith(".pom")), lib.toString());
    }

    @Test
    void toolsGetTheKafkaBrokerAndExampleToolingButNoStorm() throws IOException {
        Set<String> tools = jars("lib-tools");
        assertTrue(tools.contains("whale-examples-common-" + VERSION + ".jar"), tools.toString());
        for (String prefix : List.of("kafka_2.13-", "kafka-server-", "kafka-metadata-", "kafka-clients-", "picocli-", "progressbar-",
            "jackson-databind-", "HdrHistogram-", "log4j-core-", "log4j-slf4j2-impl-")) {
            assertTrue(tools.stream().anyMatch(j -> j.startsWith(prefix)), "lib-tools lacks " + prefix + "*: " + tools);
        }
        assertTrue(tools.stream().noneMatch(j -> j.startsWith("storm-client") || j.startsWith("storm-server")), tools.toString());
        Set<String> daemons = jars("lib");
        assertTrue(daemons.stream().noneMatch(j -> j.startsWith("kafka") || j.startsWith("whale-example")), daemons.toString());
    }

    @Test
    void tarballHoldsTheSameHome() throws Exception {
        Path tarball = HOME.resolveSibling("whale-" + VERSION + ".tar.gz");
        Process tar = new ProcessBuilder("tar", "tzf", tarball.toString()).redirectErrorStream(true).start();
        Set<String> entries = new String(tar.getInputStream().readAllBytes()).lines()
            .filter(l -> !l.endsWith("/")).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(0, tar.waitFor());
        Set<String> folder;
        try (Stream<Path> files = Files.walk(HOME)) {
            // Commands run from the home write their logs to logs/, as Storm's do.
            folder = files.filter(Files::isRegularFile)
                .filter(f -> !HOME.relativize(f).startsWith("logs"))
                .map(f -> "whale-" + VERSION + "/" + HOME.relativize(f)).collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(folder, entries);
    }

    /**
     * Every jar of a library Storm 2.8.9 (the end of the 2.x line) moved past 2.8.3 ships at 2.8.9's version or newer, in one
     * copy: the versions of 2.8.9's release notes (issue 36). The shaded ones are checked by the next test.
     */
    @Test
    void shouldShipAtLeastStorm289sVersionsOfItsLibrariesInOneCopy() throws IOException {
        Map<String, String> minimum = Map.of("jetty-server-", "12.1.10", "zookeeper-", "3.9.5", "log4j-core-", "2.26.0",
            "jackson-databind-", "2.22", "snakeyaml-", "2.6", "kafka-clients-", "4.3.1");
        List<String> shipped = new ArrayList<>();
        for (String dir : List.of("lib", "lib-worker", "lib-tools")) {
            Set<String> jars = jars(dir);
            minimum.forEach((prefix, least) -> {
                List<String> copies = jars.stream().filter(j -> j.startsWith(prefix) && Character.isDigit(j.charAt(prefix.length()))).toList();
                assertTrue(copies.size() <= 1, dir + " has more than one " + prefix + "*: " + copies);
                for (String jar : copies) {
                    String version = jar.substring(prefix.length(), jar.length() - ".jar".length());
                    assertTrue(Version.parse(version).compareTo(Version.parse(least)) >= 0, dir + "/" + jar + " is older than Storm 2.8.9's " + least);
                    shipped.add(dir + "/" + jar);
                }
            });
        }
        System.out.println("libraries Storm 2.8.9 moved on, as shipped: " + new TreeSet<>(shipped));
        minimum.keySet().forEach(prefix -> assertTrue(shipped.stream().anyMatch(j -> j.contains("/" + prefix)), "no " + prefix + "* shipped"));
    }

    /**
     * Whale's own storm-shaded-deps carries Storm 2.8.9's Netty, Thrift, ZooKeeper and SnakeYAML or newer (issue 36) under
     * the package names Storm 2.8.3's classes were compiled against, nothing outside them, and Netty's native libraries
     * under the names relocated Netty looks for: epoll loads from the jar.
     */
    @Test
    void shouldShadeStorm289sNettyThriftAndZooKeeperUnderStormsPackageNames() throws Exception {
        Path shaded = HOME.resolve("lib-worker/storm-shaded-deps-" + VERSION + ".jar");
        Map<String, String> minimum = Map.of("Shaded-Netty-Version", "4.2.15", "Shaded-Netty-Tcnative-Version", "2.0.80",
            "Shaded-Thrift-Version", "0.23", "Shaded-ZooKeeper-Version", "3.9.5", "Shaded-SnakeYAML-Version", "2.6");
        try (JarFile jar = new JarFile(shaded.toFile())) {
            Attributes manifest = jar.getManifest().getMainAttributes();
            minimum.forEach((key, least) -> {
                String version = manifest.getValue(key);
                assertTrue(version != null && Version.parse(version).compareTo(Version.parse(least)) >= 0,
                    key + " " + version + " is older than Storm 2.8.9's " + least);
            });
            System.out.println("shaded: " + new TreeMap<>(manifest.entrySet().stream().filter(e -> e.getKey().toString().startsWith("Shaded-"))
                .collect(Collectors.toMap(e -> e.getKey().toString(), e -> e.getValue().toString()))));
            Properties netty = new Properties();
            try (var in = jar.getInputStream(jar.getEntry("META-INF/maven/io.netty/netty-common/pom.properties"))) {
                netty.load(in);
            }
            assertEquals(manifest.getValue("Shaded-Netty-Version"), netty.getProperty("version"), "the manifest names the Netty inside");
            List<String> entries = jar.stream().map(JarEntry::getName).filter(n -> !n.endsWith("/")).toList();
            assertTrue(entries.contains("org/apache/storm/thrift/TServiceClient.class") && entries.contains(
                "org/apache/storm/shade/io/netty/channel/Channel.class") && entries.contains(
                "org/apache/storm/shade/org/apache/zookeeper/ZooKeeper.class"), "Storm's relocated package names");
            assertEquals(List.of(), entries.stream().filter(n -> !n.startsWith("org/apache/storm/") && !n.startsWith("META-INF/")).toList(),
                "nothing left at its own package name");
            assertTrue(entries.contains("META-INF/native/liborg_apache_storm_shade_netty_transport_native_epoll_x86_64.so"), "epoll's native");
            assertEquals(List.of(), entries.stream().filter(n -> n.matches("META-INF/native/(lib)?netty_.*")).toList(),
                "a Netty native library under its unrelocated name");
        }
        Assumptions.assumeTrue("Linux".equals(System.getProperty("os.name")) && "amd64".equals(System.getProperty("os.arch")));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {shaded.toUri().toURL()}, null)) {
            Class<?> epoll = loader.loadClass("org.apache.storm.shade.io.netty.channel.epoll.Epoll");
            assertEquals(true, epoll.getMethod("isAvailable").invoke(null), () -> "epoll: " + cause(epoll));
        }
    }

    private static String cause(Class<?> epoll) {
        try {
            return String.valueOf(epoll.getMethod("unavailabilityCause").invoke(null));
        } catch (ReflectiveOperationException e) {
            return e.toString();
        }
    }

    private static Set<String> jars(String dir) throws IOException {
        try (Stream<Path> files = Files.list(HOME.resolve(dir))) {
            return files.map(f -> f.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
