package io.whale.multicast;

/** Builds the relay tree that carries every tuple from the source to {@code destinations} nodes. */
public interface TreeBuilder {
    MulticastTree build(int destinations);
}
