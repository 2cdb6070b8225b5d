package io.whale.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The produced jar replaces storm-server-2.8.3.jar one for one: every class and resource, the patched ones replaced. */
class ServerJarIT {
    private final JarPair jars = JarPair.fromBuild();

    @Test
    void shouldHoldEveryUpstreamClassAndResourceAndNothingForeignButIoWhale() {
        assertEquals(Set.of(), jars.missingUpstreamEntries(), "entries of upstream storm-server missing from the patched jar");
        assertEquals(Set.of(), jars.changedResources(), "upstream resources changed in the patched jar");
        assertEquals(Set.of(), jars.foreignClasses(), "classes outside io.whale that upstream does not have");
    }

    @Test
    void shouldReplaceThePatchedClasses() {
        for (String name : List.of("org/apache/storm/LocalCluster.class", "org/apache/storm/daemon/nimbus/HeartbeatCache$ExecutorCache.class")) {
            assertTrue(jars.replaced(name), name + " carries its patch");
        }
        assertTrue(jars.patched().containsKey("io/whale/cluster/LocalClusterCommand.class"));
    }
}
