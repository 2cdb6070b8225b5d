package io.whale.wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The part of a multicast tree a relay frame carries: one member worker's destination tasks and the routes of its
 * children, in send order. A member is addressed by its tasks (the worker hosting {@code tasks[0]}), so a frame
 * needs no table of worker addresses: the tasks are in it anyway.
 */
public record RelayRoute(int[] tasks, List<RelayRoute> children) {
    public RelayRoute {
        if (tasks.length == 0) {
            throw new IllegalArgumentException("a member of a relay route has at least one destination task");
        }
        tasks = tasks.clone();
        children = List.copyOf(children);
    }

    public static RelayRoute leaf(int... tasks) {
        return new RelayRoute(tasks, List.of());
    }

    /**
     * The route of node {@code node}'s subtree in a tree given as child lists ({@code children[0]} the source's, node
     * {@code i + 1} member {@code i}), as {@code MulticastTree.children(node)} gives them.
     *
     * @param memberTasks the destination tasks of each member worker
     */
    public static RelayRoute subtree(int node, int[][] children, List<int[]> memberTasks) {
        List<RelayRoute> below = new ArrayList<>();
        for (int child : children[node]) {
            below.add(subtree(child, children, memberTasks));
        }
        return new RelayRoute(memberTasks.get(node - 1), below);
    }

    /** Destination tasks in this whole subtree: what a frame along this route delivers. */
    public int subtreeTasks() {
        int total = tasks.length;
        for (RelayRoute child : children) {
            total += child.subtreeTasks();
        }
        return total;
    }

    /** The tasks of this whole subtree, this member's own first. */
    public int[] allTasks() {
        int[] all = new int[subtreeTasks()];
        collect(all, 0);
        return all;
    }

    private int collect(int[] into, int at) {
        System.arraycopy(tasks, 0, into, at, tasks.length);
        int next = at + tasks.length;
        for (RelayRoute child : children) {
            next = child.collect(into, next);
        }
        return next;
    }

    /** Members in this subtree, this one included. */
    public int members() {
        int total = 1;
        for (RelayRoute child : children) {
            total += child.members();
        }
        return total;
    }

    /** Members on this subtree's longest path down, this one included: what a frame's credit comes back through. */
    public int depth() {
        int deepest = 0;
        for (RelayRoute child : children) {
            deepest = Math.max(deepest, child.depth());
        }
        return 1 + deepest;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RelayRoute r && Arrays.equals(tasks, r.tasks) && children.equals(r.children);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(tasks) + children.hashCode();
    }

    @Override
    public String toString() {
        return Arrays.toString(tasks) + (children.isEmpty() ? "" : children.toString());
    }
}
