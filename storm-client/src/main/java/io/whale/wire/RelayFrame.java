package io.whale.wire;

import java.util.List;

/**
 * One decoded relay frame, as the member it reached sees it: a tuple emitted by {@code sourceTask} on
 * {@code stream}, the {@code tasks} of this member with the seeds of their message ids ({@link EdgeSeeds#idsOf}, null
 * when the emit was unanchored), where in {@code frame} each child's route lies, to be
 * forwarded unread, and the tasks of every member below this one ({@code routeTasks}, each task once in the whole
 * route). {@code incarnation}, {@code treeId} and {@code seq} say which launch of the source's worker
 * sent it, along which of its trees, and in what order. The values stay serialized in
 * {@code frame[valuesOffset, valuesOffset + valuesLength)}.
 */
public record RelayFrame(int sourceTask, String stream, long incarnation, int treeId, long seq, int[] tasks,
                         EdgeSeeds seeds, List<Child> children, int[] routeTasks, byte[] frame,
                         int routeOffset, int valuesOffset, int valuesLength) {

    /** Tuples a frame along this route delivers: this member's tasks and every task below it. */
    public int subtreeTasks() {
        return tasks.length + routeTasks.length;
    }

    /**
     * A child's route: bytes {@code [start, end)} of the frame; the child is the worker hosting {@code firstTask};
     * a frame along it delivers {@code subtreeTasks} tuples.
     */
    public record Child(int start, int end, int firstTask, int subtreeTasks) {
    }
}
