package io.whale.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.PatchSeries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The patch series applies to the upstream sources, a stale patch stops the build by name, and applying it again
 * rewrites only what changed.
 */
class PatchSeriesTest {
    private static final Path PATCHES = Path.of("patches");
    private static final Path UPSTREAM = Path.of("target/upstream-sources");

    @Test
    void everyPatchHasAHeaderSayingWhy() throws IOException {
        for (String name : seriesEntries(PATCHES)) {
            String text = Files.readString(PATCHES.resolve(name));
            String header = text.substring(0, text.indexOf("\n--- "));
            assertTrue(header.contains("Why:"), name + " must explain why it exists");
        }
    }

    @Test
    void shouldListHooksThenFixesThenBackportsEachSayingItsKind() {
        List<PatchSeries.Patch> patches = PatchSeries.read(PatchSeriesTest::lines);
        assertEquals(seriesEntriesUnchecked(), patches.stream().map(PatchSeries.Patch::name).toList());
        assertTrue(patches.stream().anyMatch(p -> p.kind() == PatchSeries.Kind.FIX
            && p.name().equals("0017-backpressure-status-order.patch")), "the upstream bugs are fixes");
    }

    @Test
    void shouldDescribeEveryPatchOfTheSeriesInTheModulesReadme() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        for (String name : seriesEntries(PATCHES)) {
            assertTrue(readme.contains("| `" + name + "` |"), "README.md's patch table has no row for " + name);
        }
    }

    @Test
    void seriesAppliesToUpstreamSources(@TempDir Path out) throws Exception {
        Result result = applySeries(PATCHES, out.resolve("src"));
        assertEquals(0, result.exit, result.output);
        String worker = Files.readString(out.resolve("src/org/apache/storm/daemon/worker/Worker.java"));
        assertTrue(worker.contains("io.whale.WhaleVersion.banner()"));
    }

    @Test
    void shouldRewriteOnlyTheFilesWhosePatchedTextChangedSoThatAnotherBuildCompilesNothing(@TempDir Path out) throws Exception {
        Path src = out.resolve("src");
        assertEquals(0, applySeries(PATCHES, src).exit);
        Path worker = src.resolve("org/apache/storm/daemon/worker/Worker.java");
        Path config = src.resolve("org/apache/storm/Config.java");
        Path stray = src.resolve("org/apache/storm/Stray.java");
        FileTime old = FileTime.fromMillis(0);
        Files.setLastModifiedTime(worker, old);
        Files.setLastModifiedTime(config, old);
        Files.writeString(config, "// edited by hand\n", StandardOpenOption.APPEND);
        Files.setLastModifiedTime(config, old);
        Files.writeString(stray, "class Stray {}\n");

        Result again = applySeries(PATCHES, src);

        assertEquals(0, again.exit, again.output);
        assertTrue(again.output.contains("2 source file(s) changed since the last build"), again.output);
        assertEquals(old, Files.getLastModifiedTime(worker), "an unchanged file keeps its time stamp");
        assertNotEquals(old, Files.getLastModifiedTime(config), "a file that differs is written again");
        assertFalse(Files.readString(config).contains("edited by hand"), "the hand edit is undone");
        assertTrue(Files.notExists(stray), "a file the patched tree lacks is removed");
    }

    @Test
    void stalePatchFailsTheBuildNamingThePatch(@TempDir Path tmp) throws Exception {
        Path patches = Files.createDirectories(tmp.resolve("patches"));
        String good = Files.readString(PATCHES.resolve("0001-report-whale-version.patch"));
        // Same patch against context that upstream no longer has.
        String stale = good.replace("    public void start() throws Exception {", "    public void begin() throws Exception {");
        Files.writeString(patches.resolve("0001-report-whale-version.patch"), good);
        Files.writeString(patches.resolve("0002-stale-hook.patch"), stale.replace("Worker core", "Stale core"));
        Files.writeString(patches.resolve("series"), "0001-report-whale-version.patch\n0002-stale-hook.patch\n");

        Result result = applySeries(patches, tmp.resolve("src"));

        assertNotEquals(0, result.exit);
        assertTrue(result.output.contains("patch '0002-stale-hook.patch' no longer applies"), result.output);
    }

    @Test
    void patchListedButMissingIsNamed(@TempDir Path tmp) throws Exception {
        Path patches = Files.createDirectories(tmp.resolve("patches"));
        Files.writeString(patches.resolve("series"), "# comment\n0009-missing.patch\n");
        Result result = applySeries(patches, tmp.resolve("src"));
        assertNotEquals(0, result.exit);
        assertTrue(result.output.contains("'0009-missing.patch' is listed in series"), result.output);
    }

    private static List<String> lines(String file) {
        try {
            return Files.readAllLines(PATCHES.resolve(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> seriesEntriesUnchecked() {
        try {
            return seriesEntries(PATCHES);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static java.util.List<String> seriesEntries(Path dir) throws IOException {
        return Files.readAllLines(dir.resolve("series")).stream()
            .map(l -> l.replaceAll("#.*", "").trim())
            .filter(l -> !l.isEmpty())
            .toList();
    }

    private static Result applySeries(Path patchDir, Path out) throws Exception {
        Process p = new ProcessBuilder("bash", "patches/apply-series.sh", patchDir.toString(), UPSTREAM.toString(), out.toString())
            .redirectErrorStream(true)
            .start();
        byte[] output = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "apply-series.sh did not finish");
        return new Result(p.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private record Result(int exit, String output) {
    }
}
