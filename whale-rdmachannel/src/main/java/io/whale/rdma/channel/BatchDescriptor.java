package io.whale.rdma.channel;

/**
 * One work request: {@code length} bytes of framed messages starting at ring counter {@code start}.
 * {@code seq} numbers work requests of a channel from 1.
 */
record BatchDescriptor(long seq, long start, int length, int messages) {
    long end() {
        return start + length;
    }
}
