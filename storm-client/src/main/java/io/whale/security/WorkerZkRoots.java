package io.whale.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.callback.DefaultWatcherCallBack;
import org.apache.storm.cluster.DaemonType;
import org.apache.storm.shade.org.apache.curator.framework.CuratorFramework;
import org.apache.storm.shade.org.apache.zookeeper.ZooDefs;
import org.apache.storm.shade.org.apache.zookeeper.data.ACL;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.Utils;
import org.apache.storm.zookeeper.ClientZookeeper;

/**
 * The ZooKeeper nodes under Storm's root that every topology's workers publish under: the relay trees ({@link
 * #MULTICAST}) and the Prometheus endpoints ({@link #PROMETHEUS}). Without ZooKeeper authentication the first worker
 * creates them, open. With it (Storm's SASL between workers needs it), Nimbus owns Storm's root and a worker, which
 * authenticates as its topology, may neither read nor create under it, so Nimbus makes these nodes at start ({@link
 * #prepare}), each with the cluster's super user allowed everything and anyone allowed to read it and create under it;
 * what a worker creates there carries its topology's ACL ({@code Utils.getWorkerACL}), which the super user, and so the
 * UI, can read.
 */
public final class WorkerZkRoots {
    public static final String MULTICAST = "/whale-multicast";
    public static final String PROMETHEUS = "/whale-prometheus";
    private static final List<String> ALL = List.of(MULTICAST, PROMETHEUS);

    private WorkerZkRoots() {
    }

    /** The roots' ACL where ZooKeeper authentication is on ({@code storm.zookeeper.superACL} must be set then). */
    static List<ACL> acls(Map<String, Object> conf) {
        List<ACL> acls = new ArrayList<>();
        acls.add(Utils.getSuperUserAcl(conf));
        acls.add(new ACL(ZooDefs.Perms.READ | ZooDefs.Perms.CREATE, ZooDefs.Ids.ANYONE_ID_UNSAFE));
        return acls;
    }

    /**
     * Nimbus, at start: creates the roots under {@code storm.zookeeper.root} with {@link #acls} (or gives existing ones
     * that ACL); nothing where ZooKeeper authentication is off.
     */
    @SuppressWarnings("unchecked")
    public static void prepare(Map<String, Object> conf) throws Exception {
        if (!Utils.isZkAuthenticationConfiguredStormServer(conf)) {
            return;
        }
        List<ACL> acls = acls(conf);
        try (CuratorFramework zk = ClientZookeeper.mkClient(conf, (List<String>) conf.get(Config.STORM_ZOOKEEPER_SERVERS),
            ObjectReader.getInt(conf.get(Config.STORM_ZOOKEEPER_PORT)), (String) conf.get(Config.STORM_ZOOKEEPER_ROOT),
            new DefaultWatcherCallBack(), conf, DaemonType.NIMBUS)) {
            for (String root : ALL) {
                if (zk.checkExists().forPath(root) == null) {
                    zk.create().withACL(acls).forPath(root);
                } else {
                    zk.setACL().withACL(acls).forPath(root);
                }
            }
        }
    }
}
