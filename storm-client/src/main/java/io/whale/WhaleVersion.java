package io.whale;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.storm.utils.VersionInfo;

/**
 * The Whale release this patched Storm core belongs to, reported next to Storm's own version so an
 * operator can tell which core a worker or a command runs.
 */
public final class WhaleVersion {
    private static final String RESOURCE = "whale-version.properties";
    /** The client's patch series, packaged with the core (storm-client's pom). */
    private static final String PATCHES = "io/whale/patches/";
    /** The server's patch series, in the daemons' patched storm-server jar: absent from a worker's class path. */
    private static final String SERVER_PATCHES = "io/whale/patches/server/";
    private static final String VERSION = load().getProperty("version", "unknown");

    private WhaleVersion() {
    }

    public static String version() {
        return VERSION;
    }

    /** One line such as {@code Whale 0.1.0 (Apache Storm 2.8.3)}. */
    public static String banner() {
        return "Whale " + VERSION + " (Apache Storm " + VersionInfo.getVersion() + ")";
    }

    /**
     * The fixes of later Storm releases this core carries, one line each: the {@code Subject:} of every
     * {@code Kind: backport} patch ({@link PatchSeries}), which names the upstream issue or CVE; the client's, then the
     * server's when its jar is on the class path (the daemons', the commands').
     */
    public static List<String> upstreamFixes() {
        List<String> fixes = new ArrayList<>(upstreamFixes(PATCHES));
        if (WhaleVersion.class.getClassLoader().getResource(SERVER_PATCHES + "series") != null) {
            fixes.addAll(upstreamFixes(SERVER_PATCHES));
        }
        return fixes;
    }

    private static List<String> upstreamFixes(String patches) {
        return PatchSeries.read(file -> lines(patches + file)).stream()
            .filter(patch -> patch.kind() == PatchSeries.Kind.BACKPORT)
            .map(PatchSeries.Patch::subject)
            .toList();
    }

    private static List<String> lines(String resource) {
        InputStream in = WhaleVersion.class.getClassLoader().getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException(resource + " is missing from the patched core's jar");
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            return reader.lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    private static Properties load() {
        Properties props = new Properties();
        try (InputStream in = WhaleVersion.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in != null) {
                props.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        return props;
    }
}
