package io.whale.security;

import io.whale.config.WhaleConfig;
import java.util.Map;
import org.apache.storm.utils.ObjectReader;

/**
 * TLS between workers (patch 0031): a worker's TLS client checks that the server's certificate names the address it
 * connects to, as HTTPS clients do, unless {@value #HOSTNAME_VERIFICATION} is false (certificates that name no
 * address: then any certificate the trust store trusts is taken). The key is upstream Storm's (apache/storm#8987).
 */
public final class WorkerTls {
    public static final String HOSTNAME_VERIFICATION = WhaleConfig.NETTY_TLS_HOSTNAME_VERIFICATION;

    private WorkerTls() {
    }

    /** The client's endpoint identification algorithm for {@code conf}: "HTTPS", or null for none. */
    public static String endpointIdentification(Map<String, Object> conf) {
        return ObjectReader.getBoolean(conf.get(HOSTNAME_VERIFICATION), true) ? "HTTPS" : null;
    }
}
