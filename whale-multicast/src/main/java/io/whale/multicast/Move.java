package io.whale.multicast;

/** One step of a dynamic switch: {@code node} disconnects from {@code oldParent} and connects to {@code newParent}. */
public record Move(int node, int oldParent, int newParent) {
}
