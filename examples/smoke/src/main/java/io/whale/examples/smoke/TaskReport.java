package io.whale.examples.smoke;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * What one counting task has seen, written as {@code task-<id>.properties} into the report folder
 * (replaced atomically, so a reader never sees half a file): its worker's pid and port, the expected,
 * received and distinct counts, whether the spout runs in the same worker, when the task was prepared and when its
 * first tuple came (epoch ms), and the remote ends of the worker's TCP connections.
 */
public final class TaskReport {
    private final Path dir;
    private final int taskId;
    private final int workerPort;
    private final boolean spoutHere;
    private final long preparedMillis = System.currentTimeMillis();
    private long firstTupleMillis;

    public TaskReport(String dir, int taskId, int workerPort, boolean spoutHere) {
        this.dir = Path.of(dir);
        this.taskId = taskId;
        this.workerPort = workerPort;
        this.spoutHere = spoutHere;
    }

    public int taskId() {
        return taskId;
    }

    /** A tuple came: the first one's time is reported. */
    public void tupleReceived() {
        if (firstTupleMillis == 0) {
            firstTupleMillis = System.currentTimeMillis();
        }
    }

    public void write(int expected, long received, int distinct) {
        Properties p = new Properties();
        p.setProperty("task", String.valueOf(taskId));
        p.setProperty("pid", String.valueOf(ProcessHandle.current().pid()));
        p.setProperty("user", System.getProperty("user.name"));
        p.setProperty("worker.port", String.valueOf(workerPort));
        p.setProperty("expected", String.valueOf(expected));
        p.setProperty("received", String.valueOf(received));
        p.setProperty("distinct", String.valueOf(distinct));
        p.setProperty("spout.here", String.valueOf(spoutHere));
        p.setProperty("prepared.ms", String.valueOf(preparedMillis));
        p.setProperty("first.tuple.ms", String.valueOf(firstTupleMillis));
        p.setProperty("peers", String.join(",", ProcessConnections.remoteAddresses()));
        try {
            Files.createDirectories(dir);
            Path tmp = dir.resolve(".task-" + taskId + ".tmp");
            try (Writer out = Files.newBufferedWriter(tmp)) {
                p.store(out, "whale smoke topology, one counting task");
            }
            Files.move(tmp, dir.resolve("task-" + taskId + ".properties"), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report of task " + taskId + " to " + dir, e);
        }
    }
}
