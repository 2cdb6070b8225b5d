package io.whale.rdma.disni;

import io.whale.rdma.RdmaConfig;
import io.whale.rdma.RdmaException;
import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RdmaProvider;

/**
 * RDMA verbs through IBM DiSNI, for clusters that already deploy it. Needs DiSNI's native {@code libdisni} (not
 * packaged by Debian; built from the DiSNI sources) plus libibverbs/librdmacm and an RDMA device. It has not run
 * on RDMA hardware in this project's CI, which has none; its work-request construction is unit tested.
 */
public final class DisniProvider implements RdmaProvider {
    public static final String NAME = "disni";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RdmaEngine start(RdmaConfig config) {
        requireNativeLibrary();
        try {
            return new DisniEngine(config);
        } catch (java.io.IOException | RuntimeException e) {
            throw new RdmaException("DiSNI provider failed to start (is there an RDMA device?): " + e, e);
        }
    }

    static void requireNativeLibrary() {
        try {
            System.loadLibrary("disni");
        } catch (UnsatisfiedLinkError e) {
            throw new RdmaException("whale.rdma.provider=disni needs DiSNI's native library libdisni.so (build it"
                    + " from https://github.com/zrlio/disni and put it on LD_LIBRARY_PATH or java.library.path),"
                    + " plus libibverbs and librdmacm; it is not loadable here: " + e.getMessage()
                    + ". Use whale.rdma.provider=ucx (UCX also drives InfiniBand/RoCE through verbs).", e);
        }
    }
}
