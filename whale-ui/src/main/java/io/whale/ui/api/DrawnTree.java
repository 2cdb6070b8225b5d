package io.whale.ui.api;

import io.whale.multicast.MulticastTree;
import java.util.List;

/**
 * One broadcast's path through the workers as the panel draws it: {@code workers.get(v)} is node v of {@code tree}
 * as host:port (node 0 the source worker), with a title (source and shape) and a caption (the live figures).
 */
public record DrawnTree(String title, String caption, List<String> workers, MulticastTree tree) {
    public DrawnTree {
        if (workers.size() != tree.nodeCount()) {
            throw new IllegalArgumentException(workers.size() + " workers for a tree of " + tree.nodeCount() + " nodes");
        }
    }
}
