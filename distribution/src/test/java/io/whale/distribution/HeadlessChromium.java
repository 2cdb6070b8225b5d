package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Debian's {@code chromium}, headless, run inside a private cluster's network namespace (where the UI listens): the
 * DOM of a page after its scripts ran, and screenshots. Each call is one browser process, ended by WhaleCli.run.
 */
final class HeadlessChromium {
    private static final String FLAGS = "--headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000";

    private HeadlessChromium() {
    }

    static boolean available() {
        return Files.isExecutable(Path.of("/usr/bin/chromium"));
    }

    /** The page's DOM as the browser has it after its scripts ran (the browser's log goes elsewhere). */
    static String dom(PrivateLocalCluster cluster, String url) throws IOException, InterruptedException {
        WhaleCli.Result result = cluster.inside(Duration.ofMinutes(1), "bash", "-c", "chromium " + FLAGS + " --dump-dom '" + url + "' 2>/dev/null");
        assertEquals(0, result.exit(), "chromium could not load " + url + ":\n" + result.output());
        return result.output();
    }

    /** A PNG of the page at {@code width} x {@code height} CSS pixels. */
    static void screenshot(PrivateLocalCluster cluster, String url, Path png, int width, int height) throws IOException, InterruptedException {
        Files.createDirectories(png.getParent());
        WhaleCli.Result result = cluster.inside(Duration.ofMinutes(1), "bash", "-c", "chromium " + FLAGS + " --window-size=" + width + ","
            + height + " --screenshot='" + png + "' '" + url + "' 2>/dev/null");
        assertEquals(0, result.exit(), "chromium could not take " + png + " of " + url + ":\n" + result.output());
    }
}
