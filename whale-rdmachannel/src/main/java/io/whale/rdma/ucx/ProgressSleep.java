package io.whale.rdma.ucx;

import io.whale.rdma.spi.ProgressIdler;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.openucx.jucx.ucp.UcpWorker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the UCX progress thread sleeps between turns, and how other threads wake it. A park is a timed
 * {@link LockSupport#parkNanos}; a wait is UCX's {@link UcpWorker#waitForEvents}, which returns on traffic of any of
 * the worker's transports or on {@link UcpWorker#signal}, sent by {@link #wake} (a posted task, a poller's earlier
 * deadline) or by a timer at the wait's bound — UCX's wait has no timeout of its own: a one-shot timer for a poller's
 * deadline, and for the longest wait a ticker every {@code maxWaitNanos} (scheduling a timer for every wait, thousands
 * a second under light traffic, cost more than the wait saved). A signal sent before the wait begins is not lost:
 * UCX's arm step finds it and the wait returns at once. When UCX refuses to wait (a transport without events), a wait
 * becomes a park of {@code maxParkNanos} from then on: the thread polls as it did before.
 */
final class ProgressSleep implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProgressSleep.class);

    private final Thread progressThread;
    private final BooleanSupplier hasTasks;
    private final long maxParkNanos;
    private final long maxWaitNanos;
    private final ScheduledThreadPoolExecutor timer;
    private final Object signalLock = new Object();
    /** The worker to signal, null once closed or when it cannot wait; guarded by {@link #signalLock}. */
    private UcpWorker worker;
    private volatile boolean asleep;
    private volatile boolean woken;
    private volatile long waitsBegun;

    /**
     * @param worker the worker created with UCX's wake-up feature, or null to park only
     * @param hasTasks whether tasks were posted to the thread: it does not sleep then
     */
    ProgressSleep(Thread progressThread, BooleanSupplier hasTasks, UcpWorker worker, long maxParkNanos, long maxWaitNanos) {
        this.progressThread = progressThread;
        this.hasTasks = hasTasks;
        this.worker = worker;
        this.maxParkNanos = maxParkNanos;
        this.maxWaitNanos = maxWaitNanos;
        this.timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, progressThread.getName() + "-timer");
            thread.setDaemon(true);
            return thread;
        });
        timer.setRemoveOnCancelPolicy(true);
        if (worker != null) {
            timer.scheduleAtFixedRate(() -> {
                if (asleep) {
                    signal();
                }
            }, maxWaitNanos, maxWaitNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** Progress thread, at the start of a turn, before it reads its tasks and pollers. */
    void beginTurn() {
        woken = false;
    }

    /** Progress thread: parks or waits as {@code step} says, unless there is work or a wake came meanwhile. */
    void sleep(ProgressIdler.Step step) {
        asleep = true;
        try {
            if (hasTasks.getAsBoolean() || woken) {
                return;
            }
            UcpWorker waitable = waitable();
            if (step.kind() == ProgressIdler.Kind.WAIT && waitable != null) {
                waitForEvents(waitable, step.nanos());
            } else {
                LockSupport.parkNanos(step.kind() == ProgressIdler.Kind.WAIT ? maxParkNanos : step.nanos());
            }
        } finally {
            asleep = false;
        }
    }

    private UcpWorker waitable() {
        synchronized (signalLock) {
            return worker;
        }
    }

    private void waitForEvents(UcpWorker waitable, long nanos) {
        ScheduledFuture<?> bound = nanos < maxWaitNanos ? timer.schedule(this::signal, nanos, TimeUnit.NANOSECONDS) : null;
        waitsBegun++; // progress thread only
        try {
            waitable.waitForEvents();
        } catch (RuntimeException e) {
            LOG.warn("UCX cannot wait for events here ({}); its progress thread polls instead", e.getMessage());
            synchronized (signalLock) {
                worker = null;
            }
        } finally {
            if (bound != null) {
                bound.cancel(false);
            }
        }
    }

    long waitsBegun() {
        return waitsBegun;
    }

    /** Any thread: the progress thread runs a turn now if it sleeps. */
    void wake() {
        woken = true;
        if (asleep) {
            LockSupport.unpark(progressThread);
            signal();
        }
    }

    private void signal() {
        synchronized (signalLock) {
            if (worker != null) {
                worker.signal();
            }
        }
    }

    /** Before the worker is destroyed: no signal reaches it afterwards. */
    @Override
    public void close() {
        synchronized (signalLock) {
            worker = null;
        }
        timer.shutdownNow();
    }
}
