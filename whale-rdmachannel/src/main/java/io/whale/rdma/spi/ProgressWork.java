package io.whale.rdma.spi;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an engine's progress thread runs besides the provider's own progress: tasks posted from other threads
 * ({@link RdmaEngine#execute}) and pollers run at every turn ({@link RdmaEngine#addPoller}), which say when they are
 * next due. The thread serves every connection, so a failing task or poller is logged and the thread goes on.
 */
public final class ProgressWork {
    private static final Logger LOG = LoggerFactory.getLogger(ProgressWork.class);

    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final List<Poller> pollers = new CopyOnWriteArrayList<>();

    /** Any thread. */
    public void post(Runnable task) {
        tasks.add(task);
    }

    public boolean hasTasks() {
        return !tasks.isEmpty();
    }

    public void addPoller(Poller poller) {
        pollers.add(poller);
    }

    public void removePoller(Poller poller) {
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

    /** Progress thread: runs every poller once at {@code nowNanos}; returns their nearest deadline. */
    public long runPollers(long nowNanos) {
        long nearest = Poller.NO_DEADLINE;
        for (Poller poller : pollers) {
            long deadline;
            try {
                deadline = poller.poll(nowNanos);
            } catch (RuntimeException e) {
                LOG.error("poller on an RDMA progress thread failed", e);
                continue;
            }
            if (deadline != Poller.NO_DEADLINE && (nearest == Poller.NO_DEADLINE || deadline - nearest < 0)) {
                nearest = deadline;
            }
        }
        return nearest;
    }

    private static void runQuietly(Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            LOG.error("task on an RDMA progress thread failed", e);
        }
    }
}
