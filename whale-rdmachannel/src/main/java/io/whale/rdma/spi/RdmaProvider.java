package io.whale.rdma.spi;

import io.whale.rdma.RdmaConfig;
import io.whale.rdma.RdmaException;

/**
 * An RDMA implementation (UCX, DiSNI, ...). Registered with {@link java.util.ServiceLoader} and chosen by
 * {@link #name()} through {@code whale.rdma.provider}; see {@link RdmaProviders}.
 */
public interface RdmaProvider {
    String name();

    /**
     * Starts an engine: one device context and one progress thread that serves every endpoint it creates.
     *
     * @throws RdmaException with a message naming what is missing when the native layer is not usable here
     */
    RdmaEngine start(RdmaConfig config);
}
