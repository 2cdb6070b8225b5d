package io.whale.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The produced jar replaces storm-server-2.8.3.jar one for one: every class and resource, the patched ones replaced. */
class ServerJarIT {
    private static Map<String, byte[]> upstream;
    private static Map<String, byte[]> patched;

    @BeforeAll
    static void readJars() throws IOException {
        upstream = entries(Path.of(System.getProperty("whale.upstream.jar")));
        patched = entries(Path.of(System.getProperty("whale.patched.jar")));
    }

    @Test
    void shouldHoldEveryUpstreamClassAndResourceAndNothingForeignButIoWhale() {
        Set<String> missing = new TreeSet<>(upstream.keySet());
        missing.removeIf(n -> patched.containsKey(n) || n.startsWith("META-INF/maven/") || n.equals("META-INF/MANIFEST.MF"));
        assertEquals(Set.of(), missing, "entries of upstream storm-server missing from the patched jar");
        upstream.keySet().stream().filter(n -> !n.endsWith(".class") && !n.startsWith("META-INF/maven/") && !n.equals("META-INF/MANIFEST.MF"))
            .forEach(n -> assertArrayEquals(upstream.get(n), patched.get(n), "resource changed: " + n));
        Set<String> foreign = new TreeSet<>(patched.keySet());
        foreign.removeIf(n -> !n.endsWith(".class") || upstream.containsKey(n) || n.startsWith("io/whale/"));
        assertEquals(Set.of(), foreign, "classes outside io.whale that upstream does not have");
    }

    @Test
    void shouldReplaceThePatchedClasses() {
        for (String name : new String[] {"org/apache/storm/LocalCluster.class", "org/apache/storm/daemon/nimbus/HeartbeatCache$ExecutorCache.class"}) {
            assertFalse(Arrays.equals(upstream.get(name), patched.get(name)), name + " carries its patch");
        }
        assertTrue(patched.containsKey("io/whale/cluster/LocalClusterCommand.class"));
    }

    private static Map<String, byte[]> entries(Path jar) throws IOException {
        Map<String, byte[]> result = new TreeMap<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry e : Collections.list(file.entries())) {
                if (!e.isDirectory()) {
                    result.put(e.getName(), file.getInputStream(e).readAllBytes());
                }
            }
        }
        return result;
    }
}
