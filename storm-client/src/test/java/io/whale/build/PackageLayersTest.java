package io.whale.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The io.whale packages of the patched core, as jdeps reads them from the compiled classes: no package cycle, and the
 * data path in layers — the wire formats at the bottom, the flow control (windows, credit, the credited connection)
 * on them, the relay and the worker's shared WOC context above, and the send and receive paths, apart, on top.
 */
class PackageLayersTest {
    private static final Pattern EDGE = Pattern.compile("^\\s*(io\\.whale\\.\\S+)\\s+->\\s+(io\\.whale\\.\\S+)\\s+classes\\s*$");

    /** Package to the packages of this module it depends on. */
    private static Map<String, Set<String>> dependencies() {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("no jdeps in this JDK"));
        StringWriter out = new StringWriter();
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:package", "-include", "io\\.whale\\..*",
            "-e", "io\\.whale\\..*", "target/classes");
        assertEquals(0, exit, out.toString());
        Map<String, Set<String>> graph = new TreeMap<>();
        for (String line : out.toString().split("\\R")) {
            Matcher edge = EDGE.matcher(line);
            if (edge.matches() && !edge.group(1).equals(edge.group(2))) {
                graph.computeIfAbsent(edge.group(1), p -> new TreeSet<>()).add(edge.group(2));
            }
        }
        assertTrue(graph.containsKey("io.whale.woc"), "jdeps read the classes: " + out);
        return graph;
    }

    @Test
    void shouldHaveNoCycleAmongTheCoresPackages() {
        Map<String, Set<String>> graph = dependencies();
        List<String> onCycles = new ArrayList<>();
        for (String start : graph.keySet()) {
            Set<String> reached = new TreeSet<>();
            ArrayDeque<String> next = new ArrayDeque<>(graph.get(start));
            while (!next.isEmpty()) {
                String at = next.poll();
                if (reached.add(at)) {
                    next.addAll(graph.getOrDefault(at, Set.of()));
                }
            }
            if (reached.contains(start)) {
                onCycles.add(start);
            }
        }
        assertEquals(List.of(), onCycles, "packages on a cycle, in " + graph);
    }

    @Test
    void shouldKeepTheWireAndTheFlowControlBelowTheSendReceiveAndRelayPaths() {
        Map<String, Set<String>> graph = dependencies();
        assertEquals(Set.of(), graph.getOrDefault("io.whale.wire", Set.of()), "the wire formats depend on no other package");
        assertTrue(Set.of("io.whale.wire", "io.whale.config").containsAll(graph.getOrDefault("io.whale.flow", Set.of())),
            "flow control sits on the wire formats and the keys alone: " + graph.get("io.whale.flow"));
        assertTrue(Set.of("io.whale.config").containsAll(graph.getOrDefault("io.whale.config", Set.of())),
            "the keys depend on nothing of the core: " + graph.get("io.whale.config"));
    }

    @Test
    void shouldKeepTheSendAndReceivePathsApartAboveTheWorkersSharedContext() {
        Map<String, Set<String>> graph = dependencies();
        assertTrue(graph.containsKey("io.whale.send") && graph.containsKey("io.whale.receive"), "both paths read: " + graph.keySet());
        assertTrue(!graph.get("io.whale.send").contains("io.whale.receive") && !graph.get("io.whale.receive").contains("io.whale.send"),
            "sending and receiving share nothing but what is below them: " + graph);
        for (String below : List.of("io.whale.woc", "io.whale.relay", "io.whale.flow", "io.whale.wire")) {
            Set<String> on = graph.getOrDefault(below, Set.of());
            assertTrue(!on.contains("io.whale.send") && !on.contains("io.whale.receive"),
                below + " is below the send and receive paths, yet depends on " + on);
        }
    }
}
