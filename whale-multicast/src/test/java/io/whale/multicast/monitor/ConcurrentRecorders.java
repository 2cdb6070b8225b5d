package io.whale.multicast.monitor;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** Threads that each run a recording action a number of times, released together; closing stops the pool. */
final class ConcurrentRecorders implements AutoCloseable {
    private final ExecutorService pool;
    private final CountDownLatch done;

    private ConcurrentRecorders(int threads, int perThread, Runnable record) {
        this.pool = Executors.newFixedThreadPool(threads);
        this.done = new CountDownLatch(threads);
        CountDownLatch start = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            pool.execute(() -> {
                try {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        record.run();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            });
        }
        start.countDown();
    }

    static ConcurrentRecorders start(int threads, int perThread, Runnable record) {
        return new ConcurrentRecorders(threads, perThread, record);
    }

    /** True when every thread has finished within the timeout. */
    boolean awaitDone(long timeout, TimeUnit unit) throws InterruptedException {
        return done.await(timeout, unit);
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
