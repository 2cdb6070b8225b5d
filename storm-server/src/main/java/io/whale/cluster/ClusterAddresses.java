package io.whale.cluster;

import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Where a local cluster's daemons are reached: ZooKeeper and Nimbus at {@code cluster}, Supervisor i (from 1) at
 * {@code supervisors[i-1]}; all 127.0.0.1 on one host, each emulated host's own address with {@code --hosts}, where
 * {@code namespace} names host 0's network namespace, which the clients enter.
 */
public record ClusterAddresses(String cluster, List<String> supervisors, Optional<String> namespace) {
    public static final String LOOPBACK = "127.0.0.1";

    public ClusterAddresses {
        supervisors = List.copyOf(supervisors);
    }

    public static ClusterAddresses loopback(int supervisors) {
        return new ClusterAddresses(LOOPBACK, Collections.nCopies(supervisors, LOOPBACK), Optional.empty());
    }

    public String supervisor(int number) {
        return supervisors.get(number - 1);
    }
}
