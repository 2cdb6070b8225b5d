package io.whale.examples.smoke;

import com.sun.management.GarbageCollectorMXBean;
import com.sun.management.GcInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * This JVM's heap: in use now (live data plus garbage not yet collected), and in use right after the latest
 * garbage collection, which is what data kept alive (such as queued tuples) holds on to.
 */
public final class HeapGauge {
    private static final Set<String> HEAP_POOLS = ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());

    private HeapGauge() {
    }

    public static long usedBytes() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Heap in use after the most recent collection of any collector; -1 before the first one. */
    public static long usedAfterLastGcBytes() {
        GcInfo latest = null;
        for (java.lang.management.GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (bean instanceof GarbageCollectorMXBean gc) {
                GcInfo info = gc.getLastGcInfo();
                if (info != null && (latest == null || info.getEndTime() > latest.getEndTime())) {
                    latest = info;
                }
            }
        }
        if (latest == null) {
            return -1;
        }
        long used = 0;
        for (Map.Entry<String, MemoryUsage> pool : latest.getMemoryUsageAfterGc().entrySet()) {
            if (HEAP_POOLS.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
        }
        return used;
    }
}
