package io.whale;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.apache.storm.utils.VersionInfo;

/**
 * The Whale release this patched Storm core belongs to, reported next to Storm's own version so an
 * operator can tell which core a worker or a command runs.
 */
public final class WhaleVersion {
    private static final String RESOURCE = "whale-version.properties";
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
