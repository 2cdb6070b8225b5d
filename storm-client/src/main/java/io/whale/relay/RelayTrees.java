package io.whale.relay;

import io.whale.multicast.MulticastTree;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.generated.NodeInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trees one executor sends along, and the sequence of each. A tree is over the destination workers of an
 * emit: sorted, then rotated by the source task so that sources spread the relaying over the workers, and laid
 * out in the worker's {@link TreeShaper}'s current shape (node {@code i + 1} is member {@code i}); a new epoch of
 * the shaper lays them out again. Its id is the same for every source sending to the same workers, in every epoch;
 * frames of one source task along one tree are numbered from 1.
 * Not thread safe: one per executor, like the output collectors.
 */
public final class RelayTrees {
    private static final Logger LOG = LoggerFactory.getLogger(RelayTrees.class);
    private static final Comparator<NodeInfo> BY_ADDRESS = Comparator.comparing(NodeInfo::get_node)
        .thenComparing(n -> n.get_port().iterator().next());

    private final TreeShaper shaper;
    private final TreeBoard board;
    private final Map<Integer, int[][]> shapes = new HashMap<>();
    private int epoch;
    private final Map<List<NodeInfo>, Map<Integer, Tree>> trees = new HashMap<>();
    private final Map<Long, Long> seqs = new HashMap<>();
    /** (source task, tree id) whose first layout was logged; later epochs' are in the shaper's switch log. */
    private final Set<Long> logged = new HashSet<>();
    private List<NodeInfo> lastWorkers;
    private List<NodeInfo> lastSorted;
    private Map<Integer, Tree> lastTrees;

    /**
     * A tree: its id, the shaper's epoch it was laid out in, its members in node order, and each node's children in
     * send order ({@code [0]} the source's).
     */
    public record Tree(int id, int epoch, List<NodeInfo> members, int[][] children) {
        /** The members as the source reaches them, each followed by its children in brackets: {@code a:1 [b:2 [d:4], c:3]}. */
        public String layout() {
            StringBuilder out = new StringBuilder();
            appendChildren(out, 0);
            return out.toString();
        }

        private void appendChildren(StringBuilder out, int node) {
            for (int i = 0; i < children[node].length; i++) {
                int child = children[node][i];
                out.append(i == 0 ? "" : ", ").append(address(members.get(child - 1)));
                if (children[child].length > 0) {
                    out.append(" [");
                    appendChildren(out, child);
                    out.append(']');
                }
            }
        }
    }

    /** A worker as supervisor-id:port, as the relay logs name it. */
    static String address(NodeInfo node) {
        return node.get_node() + ":" + node.get_port().iterator().next();
    }

    public RelayTrees(TreeShaper shaper, TreeBoard board) {
        this.shaper = shaper;
        this.board = board;
        this.epoch = shaper.encodingEpoch();
    }

    /** The tree of the current epoch over {@code workers} for {@code sourceTask}. */
    public Tree tree(Collection<NodeInfo> workers, int sourceTask) {
        while (true) {
            int current = shaper.encodingEpoch();
            if (current != epoch) {
                epoch = current;
                shapes.clear();
                trees.clear();
                lastWorkers = null;
            }
            refresh(workers);
            Tree tree = lastTrees.get(sourceTask);
            if (tree != null) {
                return tree;
            }
            int[][] shape = shape(lastSorted.size());
            if (shape != null) {
                List<NodeInfo> members = new ArrayList<>(lastSorted);
                Collections.rotate(members, -Math.floorMod(sourceTask, members.size()));
                tree = new Tree(lastSorted.hashCode(), epoch, List.copyOf(members), shape);
                lastTrees.put(sourceTask, tree);
                board.laidOut(sourceTask, tree);
                if (logged.add(((long) sourceTask << 32) | (tree.id() & 0xFFFFFFFFL))) {
                    LOG.info("Relay tree {} of source task {} (epoch {}): {}", tree.id(), sourceTask, epoch, tree.layout());
                }
                return tree;
            }
        }
    }

    /**
     * Sorts the workers into address order and finds their trees. A broadcast's emits name the same workers in the
     * same order one after the other, so the last answer is reused while they do: no sort, list or hashing per emit.
     */
    private void refresh(Collection<NodeInfo> workers) {
        if (!sameInOrder(workers, lastWorkers)) {
            lastWorkers = List.copyOf(workers);
            List<NodeInfo> sorted = new ArrayList<>(workers);
            sorted.sort(BY_ADDRESS);
            lastSorted = List.copyOf(sorted);
            lastTrees = trees.computeIfAbsent(lastSorted, k -> new HashMap<>());
        }
    }

    private static boolean sameInOrder(Collection<NodeInfo> workers, List<NodeInfo> last) {
        if (last == null || last.size() != workers.size()) {
            return false;
        }
        int i = 0;
        for (NodeInfo worker : workers) {
            if (!worker.equals(last.get(i++))) {
                return false;
            }
        }
        return true;
    }

    /** The next sequence number of {@code sourceTask}'s frames along tree {@code treeId}. */
    public long nextSeq(int sourceTask, int treeId) {
        return seqs.merge(((long) sourceTask << 32) | (treeId & 0xFFFFFFFFL), 1L, Long::sum);
    }


    /** The epoch's shape for {@code members}, or null when the epoch ended meanwhile. */
    private int[][] shape(int members) {
        int[][] cached = shapes.get(members);
        if (cached != null) {
            return cached;
        }
        MulticastTree tree = shaper.shape(epoch, members);
        if (tree == null) {
            return null;
        }
        int[][] children = new int[tree.nodeCount()][];
        for (int node = 0; node < children.length; node++) {
            children[node] = tree.children(node);
        }
        shapes.put(members, children);
        return children;
    }
}
