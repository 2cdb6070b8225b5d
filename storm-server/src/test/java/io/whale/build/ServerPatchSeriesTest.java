package io.whale.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.PatchSeries;
import io.whale.WhaleVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The server's patch series, as the client's: each patch says why, and `whale version` lists the upstream fixes. */
class ServerPatchSeriesTest {
    private static final Path PATCHES = Path.of("patches");

    @Test
    void everyPatchHasASubjectAndSaysWhy() throws IOException {
        for (String name : seriesEntries()) {
            String text = Files.readString(PATCHES.resolve(name));
            String header = text.substring(0, text.indexOf("\n--- "));
            assertTrue(header.startsWith("Subject: "), name + " must start with its Subject: line");
            assertTrue(header.contains("Why:"), name + " must explain why it exists");
        }
    }

    @Test
    void shouldListHooksThenFixesThenBackportsEachSayingItsKind() throws IOException {
        List<PatchSeries.Patch> patches = PatchSeries.read(file -> {
            try {
                return Files.readAllLines(PATCHES.resolve(file));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertEquals(seriesEntries(), patches.stream().map(PatchSeries.Patch::name).toList());
    }

    @Test
    void shouldDescribeEveryPatchOfTheSeriesInTheModulesReadme() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        for (String name : seriesEntries()) {
            assertTrue(readme.contains("| `" + name + "` |"), "README.md's patch table has no row for " + name);
        }
    }

    @Test
    void shouldListTheServersUpstreamFixesAfterTheClientsWhenTheServerJarIsOnTheClassPath() {
        List<String> fixes = WhaleVersion.upstreamFixes();
        assertEquals(3, fixes.size(), fixes.toString());
        assertTrue(fixes.get(0).endsWith("(CVE-2026-41081)"), fixes.get(0));
        assertTrue(fixes.get(1).endsWith("(Storm 2.8.6, apache/storm#8483)"), fixes.get(1));
        assertTrue(fixes.get(2).endsWith("(Storm 2.8.5, apache/storm#8419)"), fixes.get(2));
    }

    private static List<String> seriesEntries() throws IOException {
        return Files.readAllLines(PATCHES.resolve("series")).stream()
            .map(l -> l.replaceAll("#.*", "").trim())
            .filter(l -> !l.isEmpty())
            .toList();
    }
}
