package io.whale.rdma.spi;

/** What peers may do with a registered region: the channel registers each region for no more than its use needs. */
public enum RegionAccess {
    /** Peers may READ it with its remote key, never WRITE it: a sender's ring. */
    PEER_READS,
    /** Only this process reads and writes it (a receiver's mirror, which READs land in): no peer access at all. */
    LOCAL
}
