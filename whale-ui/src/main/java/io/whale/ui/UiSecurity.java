package io.whale.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.utils.ObjectReader;

/**
 * Storm's UI security settings as {@code whale ui} meets them. It has no servlet filter chain, serves plain HTTP and asks
 * Nimbus as itself, so it cannot honour an authentication filter ({@code ui.filter}), the users and groups allowed
 * ({@code ui.users}, {@code ui.groups}), HTTPS ({@code ui.https.port}), a credentials plugin, or Nimbus's authorizer
 * deciding per user: where any is set it refuses to start, naming them, rather than serve the cluster open (issue 34).
 * {@code ui.actions.enabled: false} it honours: the topology actions are refused.
 */
final class UiSecurity {
    static final String DEFAULT_CREDENTIALS_PLUGIN = "org.apache.storm.security.auth.DefaultHttpCredentialsPlugin";

    private UiSecurity() {
    }

    /** The settings of {@code conf} that ask for what this UI cannot do, each as {@code key: value}; empty when none. */
    static List<String> unhonoured(Map<String, Object> conf) {
        List<String> set = new ArrayList<>();
        for (String key : List.of("ui.filter", "ui.filter.params", "ui.users", "ui.groups", "nimbus.authorizer")) {
            if (conf.get(key) != null) {
                set.add(key + ": " + conf.get(key));
            }
        }
        if (ObjectReader.getInt(conf.get("ui.https.port"), 0) > 0) {
            set.add("ui.https.port: " + conf.get("ui.https.port"));
        }
        Object credentials = conf.get("ui.http.creds.plugin");
        if (credentials != null && !DEFAULT_CREDENTIALS_PLUGIN.equals(credentials)) {
            set.add("ui.http.creds.plugin: " + credentials);
        }
        return set;
    }

    /** Why {@code whale ui} does not start with {@code unhonoured} set, and what to do instead. */
    static String refusal(List<String> unhonoured) {
        return String.join(", ", unhonoured) + ": whale ui cannot honour "
            + (unhonoured.size() == 1 ? "this setting" : "these settings") + " (it has no servlet filter chain, serves plain"
            + " HTTP and asks Nimbus as itself), so it would serve this cluster to anyone who reaches its port. Run Storm's"
            + " own UI (bin/storm ui of an Apache Storm home, which Whale's daemons answer) for a secured cluster, or remove"
            + " them from the conf whale ui reads, knowingly";
    }

    /** {@code ui.actions.enabled}, as Storm's UI reads it (true unless set false). */
    static boolean actionsEnabled(Map<String, Object> conf) {
        return ObjectReader.getBoolean(conf.get("ui.actions.enabled"), true);
    }
}
