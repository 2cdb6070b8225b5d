package io.whale.cluster;

import io.whale.cluster.hosts.SystemCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The user a local cluster's daemons, and so its workers and every submitted topology's code, run as (issue 34): a
 * root command starts them through {@code setpriv} as that user, once the namespaces exist, and gives it the folders
 * the daemons write ({@code logs/}, {@code data/}); the cluster's folder, its conf, pid files and state stay root's,
 * since root commands read them. Chosen by {@code --user NAME}, else {@value #ENV} (which the demos' own clusters take
 * too), else the user who ran {@code sudo}, else {@value #UNPRIVILEGED}; only {@code --user root} keeps root, and says so.
 */
public record DaemonUser(String name, int uid, int gid) {
    public static final String ENV = "WHALE_DAEMON_USER";
    /** Whom a root command runs the daemons as when nobody is named: the system's account that owns nothing. */
    static final String UNPRIVILEGED = "nobody";
    private static final String ROOT = "root";

    /**
     * The user to run as: {@code asked} ({@code --user}), else {@code env}'s {@value #ENV}, else its {@code SUDO_USER}
     * (not root), else {@value #UNPRIVILEGED}; empty (the command's own user) where root is named or the command is not
     * root, since only root can start the daemons as another user.
     */
    static Optional<DaemonUser> choose(Optional<String> asked, boolean root, Map<String, String> env, Function<String, DaemonUser> lookup) {
        Optional<String> named = asked.or(() -> Optional.ofNullable(env.get(ENV)).filter(n -> !n.isBlank()));
        if (!root) {
            if (named.isPresent()) {
                throw new IllegalArgumentException("--user " + named.get() + " (or " + ENV + ") needs root: only root can start the"
                    + " daemons as another user");
            }
            return Optional.empty();
        }
        String user = named.or(() -> Optional.ofNullable(env.get("SUDO_USER")).filter(n -> !n.isBlank() && !n.equals(ROOT)))
            .orElse(UNPRIVILEGED);
        return user.equals(ROOT) ? Optional.empty() : Optional.of(lookup.apply(user));
    }

    /** The user called {@code name}, from the system's accounts; an unknown one is refused, named. */
    static DaemonUser lookup(String name) {
        try {
            int uid = Integer.parseInt(SystemCommand.run(List.of("id", "-u", name)).strip());
            int gid = Integer.parseInt(SystemCommand.run(List.of("id", "-g", name)).strip());
            return new DaemonUser(name, uid, gid);
        } catch (LocalClusterException e) {
            throw new IllegalArgumentException("--user " + name + ": no such user on this machine (" + e.getMessage() + ")");
        }
    }

    /** Whether this process runs as root. */
    static boolean runningAsRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** What goes before a daemon's command: the command runs as this user, with its groups (and so no root capability). */
    List<String> launcher() {
        return List.of("setpriv", "--reuid=" + uid, "--regid=" + gid, "--init-groups", "--");
    }

    /** Gives {@code folder} and everything in it to this user. */
    void own(Path folder) {
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Files.setAttribute(p, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
                Files.setAttribute(p, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot give " + folder + " to " + name, e);
        }
    }

    /** Refuses, saying what to open, a Whale installation this user cannot run (a folder on its way closed to it). */
    void requireCanRun(Path whaleBin) {
        require(List.of("test", "-x", whaleBin.toString()), "cannot run " + whaleBin + ": give it read and search access to"
            + " the Whale installation (every folder on the way), or choose another user");
    }

    /** Refuses, saying what to open, a cluster whose {@code folder} (given to this user) it cannot reach past a closed folder above. */
    void requireCanWrite(Path folder) {
        require(List.of("test", "-w", folder.toString()), "cannot write " + folder + ": a folder on the way is closed to it;"
            + " give it search access to every folder above, put the cluster elsewhere (--dir), or choose another user (--user root keeps root)");
    }

    private void require(List<String> test, String otherwise) {
        try {
            SystemCommand.run(Stream.concat(launcher().stream(), test.stream()).toList());
        } catch (LocalClusterException e) {
            throw new IllegalArgumentException("--user " + name + " " + otherwise);
        }
    }

    @Override
    public String toString() {
        return name + " (uid " + uid + ")";
    }
}
