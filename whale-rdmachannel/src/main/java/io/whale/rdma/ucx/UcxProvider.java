package io.whale.rdma.ucx;

import io.whale.rdma.RdmaConfig;
import io.whale.rdma.RdmaException;
import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RdmaProvider;

/**
 * RDMA through UCX (org.openucx:jucx over the host's libucx). UCX picks verbs/RoCE when it finds an RDMA device
 * and falls back to shared memory or TCP otherwise, so the same code runs on a laptop and on InfiniBand.
 */
public final class UcxProvider implements RdmaProvider {
    public static final String NAME = "ucx";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RdmaEngine start(RdmaConfig config) {
        try {
            return new UcxEngine(config);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError | ExceptionInInitializerError e) {
            throw new RdmaException("whale.rdma.provider=ucx needs the UCX native libraries (libucp, libucs, libuct;"
                    + " Debian/Ubuntu package libucx0) on the library path: " + e, e);
        }
    }
}
