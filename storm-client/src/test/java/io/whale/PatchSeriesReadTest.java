package io.whale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PatchSeriesReadTest {
    private static final String BODY = "\nWhy: because.\n\n--- a/X.java\n+++ b/X.java\n";

    private static List<PatchSeries.Patch> read(Map<String, String> files) {
        return PatchSeries.read(name -> List.of(files.get(name).split("\n")));
    }

    @Test
    void shouldReadEachPatchsSubjectKindAndWhatToFileUpstream() {
        List<PatchSeries.Patch> patches = read(Map.of(
            "series", "# hooks\n0001-a.patch\n# fixes\n0002-b.patch\n0003-c.patch\n",
            "0001-a.patch", "Subject: A hook\nKind: hook" + BODY,
            "0002-b.patch", "Subject: A fix\nKind: fix\nFile upstream: X loses Y." + BODY,
            "0003-c.patch", "Subject: A backport (Storm 2.8.6)\nKind: backport" + BODY + "Kind: fix\n"));

        assertEquals(List.of(PatchSeries.Kind.HOOK, PatchSeries.Kind.FIX, PatchSeries.Kind.BACKPORT),
            patches.stream().map(PatchSeries.Patch::kind).toList());
        assertEquals("X loses Y.", patches.get(1).fileUpstream());
        assertNull(patches.get(0).fileUpstream());
        assertEquals("A backport (Storm 2.8.6)", patches.get(2).subject(), "the header ends at the first file");
    }

    @Test
    void shouldRefuseAPatchWithoutAKindNamingIt() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> read(Map.of(
            "series", "0001-a.patch\n", "0001-a.patch", "Subject: A hook" + BODY)));
        assertEquals("0001-a.patch needs a Subject: line and a Kind: line (hook, fix or backport)", e.getMessage());
    }

    @Test
    void shouldRefuseAFixThatSaysNothingToFileUpstream() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> read(Map.of(
            "series", "0002-b.patch\n", "0002-b.patch", "Subject: A fix\nKind: fix" + BODY)));
        assertEquals("0002-b.patch is a fix: its File upstream: line says what to report upstream", e.getMessage());
    }

    @Test
    void shouldRefuseAnUnknownKindAndASeriesOutOfOrder() {
        assertEquals("0001-a.patch: Kind: feature is none of hook, fix, backport", assertThrows(IllegalStateException.class,
            () -> read(Map.of("series", "0001-a.patch\n", "0001-a.patch", "Subject: A\nKind: feature" + BODY))).getMessage());
        assertEquals("series lists 0001-a.patch (HOOK) after 0002-b.patch: hooks first, then fixes, then backports",
            assertThrows(IllegalStateException.class, () -> read(Map.of("series", "0002-b.patch\n0001-a.patch\n",
                "0001-a.patch", "Subject: A\nKind: hook" + BODY,
                "0002-b.patch", "Subject: B\nKind: fix\nFile upstream: B." + BODY))).getMessage());
    }
}
