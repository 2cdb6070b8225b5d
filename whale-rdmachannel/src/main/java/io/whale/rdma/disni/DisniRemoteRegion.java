package io.whale.rdma.disni;

import io.whale.rdma.spi.RemoteRegion;

record DisniRemoteRegion(long address, int length, int rkey) implements RemoteRegion {
    @Override
    public void close() {
        // a remote key needs no local resources in verbs
    }
}
