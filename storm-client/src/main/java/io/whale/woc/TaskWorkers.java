package io.whale.woc;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.storm.generated.NodeInfo;

/**
 * The worker of each task of one assignment, as an index into its distinct workers: an emit groups its copies by
 * worker with array reads instead of hashing a {@link NodeInfo} per copy (a Thrift struct that hashes and compares
 * its port set on every call; at P = 64 that was a sixth of the spout's samples). Built once per assignment.
 */
public final class TaskWorkers {
    public static final int NONE = -1;

    private final Map<Integer, NodeInfo> source;
    private final int[] workerOfTask;
    private final NodeInfo[] workers;

    private TaskWorkers(Map<Integer, NodeInfo> source, int[] workerOfTask, NodeInfo[] workers) {
        this.source = source;
        this.workerOfTask = workerOfTask;
        this.workers = workers;
    }

    /** @param taskToNode the worker of each task (Storm's {@code taskToNodePort}); null reads as empty */
    static TaskWorkers of(Map<Integer, NodeInfo> taskToNode) {
        Map<Integer, NodeInfo> tasks = taskToNode == null ? Map.of() : taskToNode;
        int maxTask = tasks.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1);
        int[] workerOfTask = new int[Math.max(0, maxTask + 1)];
        Arrays.fill(workerOfTask, NONE);
        Map<NodeInfo, Integer> indices = new LinkedHashMap<>();
        tasks.forEach((task, node) -> {
            if (task >= 0 && node != null) {
                workerOfTask[task] = indices.computeIfAbsent(node, n -> indices.size());
            }
        });
        return new TaskWorkers(taskToNode, workerOfTask, indices.keySet().toArray(new NodeInfo[0]));
    }

    /** Whether this was built from exactly {@code taskToNode} (the worker replaces the map when the assignment changes). */
    boolean isOf(Map<Integer, NodeInfo> taskToNode) {
        return source == taskToNode;
    }

    /** The index of {@code task}'s worker, or {@link #NONE} for a task the assignment does not place. */
    public int workerOf(int task) {
        return task >= 0 && task < workerOfTask.length ? workerOfTask[task] : NONE;
    }

    public NodeInfo worker(int index) {
        return workers[index];
    }

    public int count() {
        return workers.length;
    }
}
