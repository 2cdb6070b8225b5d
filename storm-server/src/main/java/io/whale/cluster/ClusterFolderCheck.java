package io.whale.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A root command refuses a cluster folder another user could write (issue 34): root reads the cluster's conf and pid
 * files from it (and stops the processes they name), so whoever could change them could have root run their code or
 * stop any process. The folder may not be a symbolic link; it and every folder above it that exists (links above it
 * followed) must belong to
 * root or to the user who ran {@code sudo} (who could be root anyway), and none may be writable by its group or by
 * others, except a folder where only an entry's owner may rename or remove it (the sticky bit, as /tmp) once the path
 * goes on through a folder that exists.
 */
final class ClusterFolderCheck {
    private static final int GROUP_OR_OTHERS_WRITE = 0022;
    private static final int OTHERS_WRITE = 0002;
    private static final int STICKY = 01000;

    private ClusterFolderCheck() {
    }

    /** Why {@code folder} is unsafe for a root command run by {@code sudoUid} (empty: not through sudo); empty when safe. */
    static Optional<String> refusal(Path folder, OptionalInt sudoUid) {
        Path absolute = folder.toAbsolutePath().normalize();
        if (Files.isSymbolicLink(absolute)) {
            return Optional.of(absolute + " is a symbolic link: give the cluster's folder itself");
        }
        Path existing = absolute;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        Path real = existing == null ? absolute : realPath(existing).resolve(existing.relativize(absolute));
        boolean existingBelow = false;
        for (Path p = real; p != null; p = p.getParent()) {
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            int owner = intAttribute(p, "unix:uid");
            if (owner != 0 && (sudoUid.isEmpty() || owner != sudoUid.getAsInt())) {
                return Optional.of(p + " belongs to uid " + owner + ", neither root nor the user who ran sudo: its owner could change"
                    + " what root reads in the cluster's folder; use a folder of root's or your own");
            }
            int mode = intAttribute(p, "unix:mode");
            if ((mode & GROUP_OR_OTHERS_WRITE) != 0 && ((mode & STICKY) == 0 || !existingBelow)) {
                return Optional.of(p + " is writable by " + ((mode & OTHERS_WRITE) != 0 ? "every user" : "its group") + ": another"
                    + " user could put files of their own in the cluster's folder; use a folder only root can write");
            }
            existingBelow = true;
        }
        return Optional.empty();
    }

    /** {@code p} with the symbolic links above it resolved: the folders a path through them really goes through. */
    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int intAttribute(Path p, String name) {
        try {
            return (Integer) Files.getAttribute(p, name, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
