package io.whale.multicast.control;

/**
 * The controller's verdict for one interval: re-shape the tree from {@code fromMaxOutDegree} to
 * {@code toMaxOutDegree}. Both are effective values (at most ⌈log2(n+1)⌉), so they always name different trees.
 * The remaining fields are the observations that led to it.
 */
public record Decision(Direction direction, int fromMaxOutDegree, int toMaxOutDegree, int previousLength,
                       int length, double inputRate, double emitSeconds) {
}
