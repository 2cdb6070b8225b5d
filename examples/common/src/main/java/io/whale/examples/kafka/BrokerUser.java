package io.whale.examples.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The user a broker started by root runs as (issue 34: the demos run nothing of theirs as root): {@code --user}, else
 * {@code WHALE_DAEMON_USER}, the user the demo's cluster runs its daemons as. It is given the broker's folder and the
 * broker is started through {@code setpriv}; root's own commands (start, stop, status) keep reading the folder.
 */
record BrokerUser(String name, int uid, int gid) {
    static final String ENV = "WHALE_DAEMON_USER";

    /** The user called {@code name}; an unknown one, or one named by a command that is not root, is refused, named. */
    static BrokerUser of(String name) {
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new IllegalArgumentException("--user " + name + " (or " + ENV + ") needs root: only root starts the broker as another user");
        }
        return new BrokerUser(name, id(name, "-u"), id(name, "-g"));
    }

    /** The command that runs {@code command} as this user, with its groups. */
    List<String> launch(List<String> command) {
        List<String> as = new ArrayList<>(List.of("setpriv", "--reuid=" + uid, "--regid=" + gid, "--init-groups", "--"));
        as.addAll(command);
        return as;
    }

    /** Gives {@code folder} and what it holds to this user, refusing a folder it could not reach (a closed folder above). */
    void own(Path folder) {
        Result chown = run(List.of("chown", "-R", uid + ":" + gid, folder.toString()));
        if (chown.exit != 0) {
            throw new IllegalArgumentException("--user " + name + ": cannot give it " + folder + " (" + chown.output.strip() + ")");
        }
        if (run(launch(List.of("test", "-w", folder.toString()))).exit != 0) {
            throw new IllegalArgumentException("--user " + name + " cannot write " + folder + ": a folder on the way is closed to it;"
                + " give it search access to every folder above, or choose another --dir");
        }
    }

    private static int id(String name, String which) {
        Result r = run(List.of("id", which, name));
        if (r.exit != 0) {
            throw new IllegalArgumentException("--user " + name + ": no such user on this machine (" + r.output.strip() + ")");
        }
        return Integer.parseInt(r.output.strip());
    }

    private record Result(int exit, String output) {
    }

    private static Result run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Result(p.waitFor(), output);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command.get(0), e);
        }
    }
}
