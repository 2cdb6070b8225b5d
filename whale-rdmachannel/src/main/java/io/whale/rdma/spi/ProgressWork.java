package io.whale.rdma.spi;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an engine's progress thread runs besides the provider's own progress: tasks posted from other threads
 * ({@link RdmaEngine#execute}) and pollers run at every turn ({@link RdmaEngine#addPoller}). The thread serves
 * every connection, so a failing task or poller is logged and the thread goes on.
 */
public final class ProgressWork {
    private static final Logger LOG = LoggerFactory.getLogger(ProgressWork.class);

    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final List<Runnable> pollers = new CopyOnWriteArrayList<>();

    /** Any thread. */
    public void post(Runnable task) {
        tasks.add(task);
    }

    public boolean hasTasks() {
        return !tasks.isEmpty();
    }

    public void addPoller(Runnable poller) {
        pollers.add(poller);
    }

    public void removePoller(Runnable poller) {
        pollers.remove(poller);
    }

    /** Progress thread: runs the posted tasks; returns how many ran. */
    public int runTasks() {
        int count = 0;
        Runnable task;
        while ((task = tasks.poll()) != null) {
            runQuietly(task);
            count++;
        }
        return count;
    }

    /** Progress thread: runs every poller once. */
    public void runPollers() {
        for (Runnable poller : pollers) {
            runQuietly(poller);
        }
    }

    private static void runQuietly(Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            LOG.error("task on an RDMA progress thread failed", e);
        }
    }
}
