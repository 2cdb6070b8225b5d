package io.whale.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The produced jar replaces storm-client-2.8.3.jar one for one. */
class PatchedJarIT {
    private static JarPair jars;

    @BeforeAll
    static void readJars() {
        jars = JarPair.fromBuild();
    }

    @Test
    void holdsEveryUpstreamClass() {
        long upstreamClasses = jars.upstream().keySet().stream().filter(n -> n.endsWith(".class")).count();
        long patchedClasses = jars.patched().keySet().stream().filter(n -> n.endsWith(".class")).count();
        System.out.printf("upstream classes: %d, patched jar classes: %d (io.whale: %d)%n", upstreamClasses, patchedClasses,
            jars.patched().keySet().stream().filter(n -> n.startsWith("io/whale/") && n.endsWith(".class")).count());
        assertEquals(Set.of(), jars.missingUpstreamEntries(), "entries of upstream storm-client missing from the patched jar");
    }

    @Test
    void holdsEveryUpstreamResourceUnchanged() {
        assertEquals(Set.of(), jars.changedResources(), "upstream resources changed in the patched jar");
    }

    @Test
    void addsWhaleClassesAndOnlyWhalePackagesAreNew() {
        assertTrue(jars.patched().containsKey("io/whale/WhaleVersion.class"));
        assertEquals(Set.of(), jars.foreignClasses(), "classes outside io.whale that upstream does not have");
    }

    @Test
    void patchedClassesAreReplaced() {
        assertTrue(jars.replaced("org/apache/storm/utils/VersionInfo.class"), "VersionInfo carries the version patch");
    }

    @Test
    void keepsUpstreamVersionInfoSoSupervisorsTreatItAs283() {
        assertEquals(new String(jars.upstream().get("storm-client-version-info.properties")),
            new String(jars.patched().get("storm-client-version-info.properties")));
    }
}
