package io.whale.config;

import java.util.Map;
import org.apache.storm.Config;

/**
 * Picks the messaging plugin of a worker from the topology conf. {@link WhaleConfig#TRANSPORT} is the switch users set
 * ({@code netty} or {@code rdma}); unset, Storm's own {@code storm.messaging.transport} decides as in stock Storm.
 * The RDMA context lives in whale-rdmachannel and is loaded by name, so this core does not depend on it.
 */
public final class TransportSelection {
    public static final String NETTY_CONTEXT = "org.apache.storm.messaging.netty.Context";
    public static final String RDMA_CONTEXT = "io.whale.rdma.storm.RdmaContext";

    private TransportSelection() {
    }

    /** The IContext class name the worker should load; a bad value is refused as at submit, naming the key. */
    public static String pluginClassName(Map<String, Object> topoConf) {
        Object choice = topoConf.get(WhaleConfig.TRANSPORT);
        if (choice == null) {
            return (String) topoConf.get(Config.STORM_MESSAGING_TRANSPORT);
        }
        WhaleConfigValidation.check(WhaleConfig.TRANSPORT, choice);
        return "rdma".equals(choice.toString().trim().toLowerCase(java.util.Locale.ROOT)) ? RDMA_CONTEXT : NETTY_CONTEXT;
    }
}
