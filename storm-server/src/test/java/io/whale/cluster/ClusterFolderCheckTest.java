package io.whale.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A root command refuses a cluster folder another user could write (issue 34). As root, on folders made here. */
class ClusterFolderCheckTest {
    @TempDir
    Path tmp;

    @BeforeEach
    void asRoot() throws Exception {
        assumeTrue(DaemonUser.runningAsRoot(), "sets owners: needs root (CI runs as root)");
        Files.setAttribute(tmp, "unix:mode", 0755);
    }

    @Test
    void shouldTakeAFolderOnlyRootCanWrite() throws Exception {
        Path cluster = Files.createDirectories(tmp.resolve("cluster"));

        assertEquals(Optional.empty(), ClusterFolderCheck.refusal(cluster, OptionalInt.empty()));
        assertEquals(Optional.empty(), ClusterFolderCheck.refusal(tmp.resolve("not-yet"), OptionalInt.empty()));
    }

    @Test
    void shouldRefuseAFolderEveryUserCanWriteOnTheWay() throws Exception {
        Path open = Files.createDirectories(tmp.resolve("open"));
        Files.setAttribute(open, "unix:mode", 0777);

        Optional<String> refusal = ClusterFolderCheck.refusal(open.resolve("cluster"), OptionalInt.empty());

        assertEquals(Optional.of(open + " is writable by every user: another user could put files of their own in the cluster's"
            + " folder; use a folder only root can write"), refusal);
    }

    @Test
    void shouldTakeAStickyFolderOnlyAboveAFolderThatExists() throws Exception {
        Path sticky = Files.createDirectories(tmp.resolve("sticky"));
        Files.setAttribute(sticky, "unix:mode", 01777);
        Path mine = Files.createDirectories(sticky.resolve("mine"));

        assertEquals(Optional.empty(), ClusterFolderCheck.refusal(mine, OptionalInt.empty()), "like /tmp/mine");
        assertTrue(ClusterFolderCheck.refusal(sticky.resolve("not-yet"), OptionalInt.empty()).isPresent(),
            "another user could make /tmp/not-yet first");
    }

    @Test
    void shouldRefuseAFolderOfAnotherUserButThatOfWhoeverRanSudo() throws Exception {
        Path theirs = Files.createDirectories(tmp.resolve("theirs"));
        Files.setAttribute(theirs, "unix:uid", 4242, LinkOption.NOFOLLOW_LINKS);

        assertEquals(Optional.of(theirs + " belongs to uid 4242, neither root nor the user who ran sudo: its owner could change what"
            + " root reads in the cluster's folder; use a folder of root's or your own"), ClusterFolderCheck.refusal(theirs.resolve("cluster"),
            OptionalInt.empty()));
        assertEquals(Optional.empty(), ClusterFolderCheck.refusal(theirs.resolve("cluster"), OptionalInt.of(4242)));
    }

    @Test
    void shouldFollowALinkAboveTheFolderToTheFoldersItLeadsThrough() throws Exception {
        Path safe = Files.createDirectories(tmp.resolve("safe"));
        Path open = Files.createDirectories(tmp.resolve("open"));
        Files.setAttribute(open, "unix:mode", 0777);

        assertEquals(Optional.empty(), ClusterFolderCheck.refusal(Files.createSymbolicLink(tmp.resolve("to-safe"), safe).resolve("cluster"),
            OptionalInt.empty()), "a link is no folder anyone can write");
        assertTrue(ClusterFolderCheck.refusal(Files.createSymbolicLink(tmp.resolve("to-open"), open).resolve("cluster"),
            OptionalInt.empty()).orElseThrow().startsWith(open.toRealPath() + " is writable by every user"));
    }

    @Test
    void shouldRefuseASymbolicLink() throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("link"), Files.createDirectories(tmp.resolve("target")));

        assertEquals(Optional.of(link + " is a symbolic link: give the cluster's folder itself"), ClusterFolderCheck.refusal(link,
            OptionalInt.empty()));
    }
}
