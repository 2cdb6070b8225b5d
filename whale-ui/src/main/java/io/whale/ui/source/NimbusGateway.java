package io.whale.ui.source;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologyPageInfo;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.NimbusClient;

/**
 * The UI's questions to Nimbus over Thrift, one connection per question (as Storm's UI does): each answer or a
 * {@link UiError} that says what went wrong in the operator's words. Asked {@link #as a user}, it connects as that user
 * ({@code getConfiguredClientAs}), so that a secured Nimbus decides by the user, not by the UI daemon.
 */
public final class NimbusGateway {
    private final Map<String, Object> conf;
    private final String user;

    /**
     * Storm's client retries a Nimbus that does not answer five times, two seconds apart and growing: a page would
     * hang for minutes. The UI tries twice, a fifth of a second apart, and says so.
     */
    public NimbusGateway(Map<String, Object> conf) {
        this.conf = new HashMap<>(conf);
        this.conf.put(Config.STORM_NIMBUS_RETRY_TIMES, 1);
        this.conf.put(Config.STORM_NIMBUS_RETRY_INTERVAL, 200);
        this.conf.put(Config.STORM_NIMBUS_RETRY_INTERVAL_CEILING, 400);
        this.user = null;
    }

    private NimbusGateway(Map<String, Object> conf, String user) {
        this.conf = conf;
        this.user = user;
    }

    /** This gateway asking as {@code user}; itself when {@code user} is null (nobody authenticated: the UI asks). */
    public NimbusGateway as(String user) {
        return user == null ? this : new NimbusGateway(conf, user);
    }

    public ClusterSummary cluster() {
        return ask("the cluster summary", Nimbus.Iface::getClusterInfo);
    }

    /** {@code window} as Storm's UI names it: "600", "10800", "86400" or ":all-time". */
    public TopologyPageInfo topologyPage(String id, String window) {
        return askTopology(id, n -> n.getTopologyPageInfo(id, window, false));
    }

    public TopologyInfo topologyInfo(String id) {
        return askTopology(id, n -> n.getTopologyInfo(id));
    }

    /** The topology as submitted (its components and their groupings). */
    public StormTopology userTopology(String id) {
        return askTopology(id, n -> n.getUserTopology(id));
    }

    @SuppressWarnings("unchecked")
    public Map<String, Object> topologyConf(String id) {
        String json = askTopology(id, n -> n.getTopologyConf(id));
        return (Map<String, Object>) JSONValue.parse(json);
    }

    public void activate(String id) {
        act(id, Nimbus.Iface::activate);
    }

    public void deactivate(String id) {
        act(id, Nimbus.Iface::deactivate);
    }

    public void rebalance(String id, int waitSecs) {
        RebalanceOptions options = new RebalanceOptions();
        options.set_wait_secs(waitSecs);
        act(id, (nimbus, name) -> nimbus.rebalance(name, options));
    }

    public void kill(String id, int waitSecs) {
        KillOptions options = new KillOptions();
        options.set_wait_secs(waitSecs);
        act(id, (nimbus, name) -> nimbus.killTopologyWithOpts(name, options));
    }

    /** Nimbus's topology actions take the topology's name; the UI's paths, as Storm's, its id. */
    private void act(String id, Action action) {
        String name = nameOf(id);
        askTopology(id, n -> {
            action.on(n, name);
            return null;
        });
    }

    private String nameOf(String id) {
        return askTopology(id, n -> n.getTopologyInfo(id).get_name());
    }

    private <T> T askTopology(String id, Question<T> question) {
        return ask("topology " + id, n -> {
            try {
                return question.ask(n);
            } catch (NotAliveException e) {
                throw new UiError(404, "topology " + id + " not found: it is not running (any more)");
            }
        });
    }

    private <T> T ask(String what, Question<T> question) {
        try (NimbusClient client = user == null ? NimbusClient.getConfiguredClient(conf) : NimbusClient.getConfiguredClientAs(conf, user)) {
            return question.ask(client.getClient());
        } catch (UiError e) {
            throw e;
        } catch (AuthorizationException e) {
            throw new UiError(403, "Nimbus refused " + what + ": " + e.get_msg());
        } catch (InvalidTopologyException e) {
            throw new UiError(400, "Nimbus refused " + what + ": " + e.get_msg());
        } catch (TException | RuntimeException e) {
            throw new UiError(503, "Nimbus at " + seeds() + ":" + conf.get(Config.NIMBUS_THRIFT_PORT)
                + " does not answer (" + rootMessage(e) + "); is it running?", e);
        }
    }

    private String seeds() {
        Object seeds = conf.get(Config.NIMBUS_SEEDS);
        return seeds instanceof List<?> list ? String.join(",", list.stream().map(String::valueOf).toList()) : String.valueOf(seeds);
    }

    public static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    @FunctionalInterface
    private interface Action {
        void on(Nimbus.Iface nimbus, String topologyName) throws TException;
    }

    @FunctionalInterface
    private interface Question<T> {
        T ask(Nimbus.Iface nimbus) throws TException;
    }
}
