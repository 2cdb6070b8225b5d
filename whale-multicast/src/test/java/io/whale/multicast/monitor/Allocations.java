package io.whale.multicast.monitor;

import java.lang.management.ManagementFactory;

/** Bytes the current thread allocated, from the HotSpot thread MXBean. */
final class Allocations {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private Allocations() {
    }

    static long allocatedBy(Runnable work) {
        long id = Thread.currentThread().getId();
        long before = THREADS.getThreadAllocatedBytes(id);
        work.run();
        return THREADS.getThreadAllocatedBytes(id) - before;
    }
}
