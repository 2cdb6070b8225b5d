package io.whale.examples.smoke;

import java.util.HashMap;
import java.util.Map;

/** One line of a task's progress report: a count, when it was taken, and the worker's pid and heap. */
final class WorkerSample {
    private WorkerSample() {
    }

    static Map<String, Object> of(String counter, long count) {
        Map<String, Object> sample = new HashMap<>();
        sample.put(counter, count);
        sample.put("time.ms", System.currentTimeMillis());
        sample.put("pid", ProcessHandle.current().pid());
        sample.put("heap.used", HeapGauge.usedBytes());
        sample.put("heap.after.gc", HeapGauge.usedAfterLastGcBytes());
        return sample;
    }
}
