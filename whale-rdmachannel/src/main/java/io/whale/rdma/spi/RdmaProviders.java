package io.whale.rdma.spi;

import io.whale.rdma.RdmaConfig;
import io.whale.rdma.RdmaException;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Finds a provider by the name given in {@code whale.rdma.provider}. */
public final class RdmaProviders {
    private RdmaProviders() {
    }

    public static RdmaProvider byName(String name) {
        List<String> known = new ArrayList<>();
        for (RdmaProvider provider : ServiceLoader.load(RdmaProvider.class, RdmaProviders.class.getClassLoader())) {
            if (provider.name().equals(name)) {
                return provider;
            }
            known.add(provider.name());
        }
        throw new RdmaException("unknown " + RdmaConfig.PROVIDER + " '" + name + "'; available: " + known);
    }

    public static RdmaEngine start(RdmaConfig config) {
        return byName(config.provider()).start(config);
    }
}
