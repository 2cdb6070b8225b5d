package io.whale.suites;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URISyntaxException;
import java.nio.file.Path;
import org.apache.storm.Config;

/**
 * Which storm-client jar this JVM loaded Storm from. The {@code on-upstream-storm-client} run swaps the patched
 * core for upstream's unpatched jar (system property {@code whale.suites.storm-client=upstream}); a run that
 * claims so but loaded the patched core (or the reverse) would prove nothing, so this fails it.
 */
final class StormClientOnClasspath {
    private StormClientOnClasspath() {
    }

    static void assertIsTheOneThisRunExpects() {
        boolean upstreamExpected = "upstream".equals(System.getProperty("whale.suites.storm-client"));
        assertEquals(upstreamExpected, !isPatched(), "Storm loaded from " + jar() + ", Whale classes "
            + (isPatched() ? "present" : "absent"));
    }

    /** Whale's own classes come in the patched core only. */
    static boolean isPatched() {
        try {
            Class.forName("io.whale.config.WocConfig", false, StormClientOnClasspath.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException absent) {
            return false;
        }
    }

    static Path jar() {
        try {
            return Path.of(Config.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
