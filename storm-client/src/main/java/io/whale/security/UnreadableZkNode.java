package io.whale.security;

import java.util.function.BooleanSupplier;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;
import org.apache.storm.utils.Utils;

/**
 * Since ZooKeeper 3.9.3 (ZOOKEEPER-2590) {@code exists} needs READ on the node where it used to need nothing, and answers
 * NoAuth only for a node that exists. With ZooKeeper authentication on, Nimbus creates Storm's root with its own
 * identity's ACL and a worker, which authenticates as its topology, may not read it: Storm's {@code mkdirs} asked
 * {@code exists} first and the worker died at start (issue 34, SASL between workers). A node that answers NoAuth exists.
 */
public final class UnreadableZkNode {
    private UnreadableZkNode() {
    }

    /** {@code exists}'s answer, true where it was refused for want of READ. */
    public static boolean existsOrUnreadable(BooleanSupplier exists) {
        try {
            return exists.getAsBoolean();
        } catch (RuntimeException e) {
            if (Utils.exceptionCauseIsInstanceOf(KeeperException.NoAuthException.class, e)) {
                return true;
            }
            throw e;
        }
    }
}
