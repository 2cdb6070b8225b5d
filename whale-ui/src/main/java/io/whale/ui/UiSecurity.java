package io.whale.ui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.storm.DaemonConfig;
import org.apache.storm.utils.ObjectReader;
import org.eclipse.jetty.ee10.servlet.FilterHolder;

/**
 * Storm's UI security settings as {@code whale ui} meets them: the login filter ({@code ui.filter}, {@code
 * ui.filter.params}) it puts before every page as Storm's UI does; {@code ui.actions.enabled: false} refuses the
 * topology actions. {@code ui.users} and {@code ui.groups}, Storm 1's allow-lists of its UI, no Storm 2 UI reads (Storm
 * 2 decides by {@code nimbus.authorizer} and the topologies' {@code topology.users}/{@code topology.groups}); where one
 * is set it refuses to start, naming it, rather than let in whom the operator meant to keep out.
 */
final class UiSecurity {
    private UiSecurity() {
    }

    /** The settings of {@code conf} that ask for what this UI does not do, each as {@code key: value}; empty when none. */
    static List<String> unhonoured(Map<String, Object> conf) {
        List<String> set = new ArrayList<>();
        for (String key : List.of("ui.users", "ui.groups")) {
            if (conf.get(key) != null) {
                set.add(key + ": " + conf.get(key));
            }
        }
        return set;
    }

    /** Why {@code whale ui} does not start with {@code unhonoured} set, and what to do instead. */
    static String refusal(List<String> unhonoured) {
        return String.join(", ", unhonoured) + ": Storm 1's allow-lists of its UI, which neither Storm 2's UI nor whale ui"
            + " reads; allow users with nimbus.authorizer (e.g. org.apache.storm.security.auth.authorizer.SimpleACLAuthorizer"
            + " with nimbus.users, nimbus.admins and each topology's topology.users) and a login filter (ui.filter), then"
            + " remove " + (unhonoured.size() == 1 ? "it" : "them");
    }

    /**
     * {@code ui.filter} as a filter of every request, {@code ui.filter.params} its init parameters; empty when none is
     * configured. The class is loaded when the UI starts (a missing one is refused then, naming the key).
     */
    static Optional<FilterHolder> loginFilter(Map<String, Object> conf) {
        Object name = conf.get(DaemonConfig.UI_FILTER);
        if (name == null || String.valueOf(name).isBlank()) {
            return Optional.empty();
        }
        FilterHolder login = new FilterHolder();
        login.setName("ui.filter");
        try {
            login.setHeldClass(Class.forName(String.valueOf(name).trim()).asSubclass(jakarta.servlet.Filter.class));
        } catch (ClassNotFoundException | ClassCastException e) {
            throw new IllegalArgumentException(DaemonConfig.UI_FILTER + ": " + name + " is not a jakarta.servlet.Filter on whale ui's"
                + " class path (" + e.getMessage() + "); put its jar in extlib-daemon/", e);
        }
        Object params = conf.get(DaemonConfig.UI_FILTER_PARAMS);
        if (params != null && !(params instanceof Map<?, ?>)) {
            throw new IllegalArgumentException(DaemonConfig.UI_FILTER_PARAMS + " must be a map of the filter's init parameters, got " + params);
        }
        Map<String, String> init = new HashMap<>();
        if (params instanceof Map<?, ?> map) {
            map.forEach((k, v) -> init.put(String.valueOf(k), String.valueOf(v)));
        }
        login.setInitParameters(init);
        return Optional.of(login);
    }

    /** {@code ui.actions.enabled}, as Storm's UI reads it (true unless set false). */
    static boolean actionsEnabled(Map<String, Object> conf) {
        return ObjectReader.getBoolean(conf.get("ui.actions.enabled"), true);
    }
}
