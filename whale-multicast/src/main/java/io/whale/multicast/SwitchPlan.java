package io.whale.multicast;

import java.util.List;

/**
 * A dynamic switch from {@code from} to {@code to}: applying {@code moves} one by one to {@code from} gives
 * {@code to}, and every tree on the way is a valid spanning tree.
 */
public record SwitchPlan(MulticastTree from, MulticastTree to, int maxOutDegree, List<Move> moves) {
    public SwitchPlan {
        moves = List.copyOf(moves);
    }

    public boolean isEmpty() {
        return moves.isEmpty();
    }
}
