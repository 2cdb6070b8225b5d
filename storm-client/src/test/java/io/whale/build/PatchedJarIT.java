package io.whale.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The produced jar replaces storm-client-2.8.3.jar one for one. */
class PatchedJarIT {
    private static Map<String, byte[]> upstream;
    private static Map<String, byte[]> patched;

    @BeforeAll
    static void readJars() throws IOException {
        upstream = entries(Path.of(System.getProperty("whale.upstream.jar")));
        patched = entries(Path.of(System.getProperty("whale.patched.jar")));
    }

    @Test
    void holdsEveryUpstreamClass() {
        Set<String> missing = new TreeSet<>();
        upstream.keySet().stream().filter(n -> n.endsWith(".class")).filter(n -> !patched.containsKey(n)).forEach(missing::add);
        long upstreamClasses = upstream.keySet().stream().filter(n -> n.endsWith(".class")).count();
        long patchedClasses = patched.keySet().stream().filter(n -> n.endsWith(".class")).count();
        System.out.printf("upstream classes: %d, patched jar classes: %d (io.whale: %d)%n", upstreamClasses, patchedClasses,
            patched.keySet().stream().filter(n -> n.startsWith("io/whale/") && n.endsWith(".class")).count());
        assertTrue(missing.isEmpty(), "classes of upstream storm-client missing from the patched jar: " + missing);
    }

    @Test
    void holdsEveryUpstreamResourceUnchanged() {
        upstream.keySet().stream()
            .filter(n -> !n.endsWith(".class") && !n.startsWith("META-INF/maven/") && !n.equals("META-INF/MANIFEST.MF"))
            .forEach(n -> {
                assertTrue(patched.containsKey(n), "resource missing: " + n);
                assertArrayEquals(upstream.get(n), patched.get(n), "resource changed: " + n);
            });
    }

    @Test
    void addsWhaleClassesAndOnlyWhalePackagesAreNew() {
        assertTrue(patched.containsKey("io/whale/WhaleVersion.class"));
        Set<String> foreign = new TreeSet<>();
        patched.keySet().stream()
            .filter(n -> n.endsWith(".class") && !upstream.containsKey(n) && !n.startsWith("io/whale/"))
            .forEach(foreign::add);
        assertTrue(foreign.isEmpty(), "classes outside io.whale that upstream does not have: " + foreign);
    }

    @Test
    void patchedClassesAreReplaced() {
        assertFalse(java.util.Arrays.equals(upstream.get("org/apache/storm/utils/VersionInfo.class"),
            patched.get("org/apache/storm/utils/VersionInfo.class")), "VersionInfo carries the version patch");
    }

    @Test
    void keepsUpstreamVersionInfoSoSupervisorsTreatItAs283() {
        assertEquals(new String(upstream.get("storm-client-version-info.properties")),
            new String(patched.get("storm-client-version-info.properties")));
    }

    private static Map<String, byte[]> entries(Path jar) throws IOException {
        Map<String, byte[]> result = new TreeMap<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry e : java.util.Collections.list(file.entries())) {
                if (!e.isDirectory()) {
                    result.put(e.getName(), file.getInputStream(e).readAllBytes());
                }
            }
        }
        return result;
    }
}
