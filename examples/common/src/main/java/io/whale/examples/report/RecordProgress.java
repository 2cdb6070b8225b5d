package io.whale.examples.report;

import java.util.HashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The records a topology got through, from its tasks' running {@link ProgressStream} counts: the records a
 * component's tasks share are the sum of theirs, and a record its tasks all receive counts once every task finished it
 * (the fewest any task finished; a task that has not reported yet finished none).
 */
final class RecordProgress {
    private final ToIntFunction<String> tasksOf;
    private final Map<String, Map<Integer, long[]>> counts = new HashMap<>();

    /** {@code tasksOf}: how many tasks a component has. */
    RecordProgress(ToIntFunction<String> tasksOf) {
        this.tasksOf = tasksOf;
    }

    void update(String component, int task, long partitioned, long broadcast) {
        counts.computeIfAbsent(component, c -> new HashMap<>()).put(task, new long[] {partitioned, broadcast});
    }

    boolean any() {
        return !counts.isEmpty();
    }

    long records() {
        long records = 0;
        for (Map.Entry<String, Map<Integer, long[]>> component : counts.entrySet()) {
            Map<Integer, long[]> tasks = component.getValue();
            long fewestBroadcast = tasks.size() < tasksOf.applyAsInt(component.getKey()) ? 0 : Long.MAX_VALUE;
            for (long[] task : tasks.values()) {
                records += task[0];
                fewestBroadcast = Math.min(fewestBroadcast, task[1]);
            }
            records += fewestBroadcast;
        }
        return records;
    }
}
