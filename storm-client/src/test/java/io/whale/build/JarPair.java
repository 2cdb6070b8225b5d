package io.whale.build;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * An upstream jar and the patched jar built to replace it one for one (the client's and the server's): the failsafe
 * configuration names them in {@code whale.upstream.jar} and {@code whale.patched.jar}. Shared with storm-server's
 * tests through this module's test jar.
 */
public record JarPair(Map<String, byte[]> upstream, Map<String, byte[]> patched) {

    /** The pair the build names. */
    public static JarPair fromBuild() {
        return new JarPair(entries(Path.of(System.getProperty("whale.upstream.jar"))), entries(Path.of(System.getProperty("whale.patched.jar"))));
    }

    /** Entries of upstream's jar the patched one lacks (its Maven metadata and manifest are the patched build's own). */
    public Set<String> missingUpstreamEntries() {
        Set<String> missing = new TreeSet<>(upstream.keySet());
        missing.removeIf(n -> patched.containsKey(n) || ownMetadata(n));
        return missing;
    }

    /** Upstream's resources (not classes) whose bytes differ in the patched jar. */
    public Set<String> changedResources() {
        Set<String> changed = new TreeSet<>();
        upstream.forEach((n, bytes) -> {
            if (!n.endsWith(".class") && !ownMetadata(n) && patched.containsKey(n) && !java.util.Arrays.equals(bytes, patched.get(n))) {
                changed.add(n);
            }
        });
        return changed;
    }

    /** Classes upstream does not have, outside Whale's own {@code io.whale} packages. */
    public Set<String> foreignClasses() {
        Set<String> foreign = new TreeSet<>(patched.keySet());
        foreign.removeIf(n -> !n.endsWith(".class") || upstream.containsKey(n) || n.startsWith("io/whale/"));
        return foreign;
    }

    /** Whether {@code entry} differs between the two jars (a patched class is replaced). */
    public boolean replaced(String entry) {
        return !java.util.Arrays.equals(upstream.get(entry), patched.get(entry));
    }

    private static boolean ownMetadata(String entry) {
        return entry.startsWith("META-INF/maven/") || entry.equals("META-INF/MANIFEST.MF");
    }

    private static Map<String, byte[]> entries(Path jar) {
        Map<String, byte[]> result = new TreeMap<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry e : Collections.list(file.entries())) {
                if (!e.isDirectory()) {
                    result.put(e.getName(), file.getInputStream(e).readAllBytes());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        }
        return result;
    }
}
