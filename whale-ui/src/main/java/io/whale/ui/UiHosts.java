package io.whale.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The names this UI answers to (issue 34, DNS rebinding). A page of another site can have its own name resolve to the
 * UI's address; the browser then sends that site's name as {@code Host} and as the action's {@code Origin}, so the
 * same-origin check passes and the page could read the cluster or kill a topology. Such a request names a host that is
 * not one of the UI's own: it is refused before anything is done. The UI's own names are IP addresses (any), {@code
 * localhost}, this machine's host name, {@code ui.host} and {@code storm.local.hostname} when set, and the names listed
 * in {@value #KEY} (a name a proxy or DNS gives the UI). A request naming no host (HTTP/1.0, scripts) is served: no
 * browser sends one.
 */
final class UiHosts {
    static final String KEY = "whale.ui.hosts";
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final Set<String> names;

    private UiHosts(Set<String> names) {
        this.names = names;
    }

    /** The UI's names from {@code conf} and this machine's {@code hostname}; a bad {@value #KEY} is refused, named. */
    static UiHosts of(Map<String, Object> conf, String hostname) {
        Set<String> names = new TreeSet<>();
        names.add("localhost");
        names.add(normal(hostname));
        for (String key : List.of("ui.host", "storm.local.hostname")) {
            if (conf.get(key) instanceof String name && !name.isBlank()) {
                names.add(normal(name));
            }
        }
        names.addAll(listed(conf.get(KEY)));
        return new UiHosts(names);
    }

    private static List<String> listed(Object value) {
        List<String> listed = new ArrayList<>();
        if (value == null) {
            return listed;
        }
        if (value instanceof String one) {
            value = List.of(one);
        }
        if (!(value instanceof List<?> list) || list.stream().anyMatch(n -> !(n instanceof String s) || s.isBlank() || s.contains(":")
            || s.contains("/"))) {
            throw new IllegalArgumentException(KEY + " must be a list of host names (without port), got " + value);
        }
        list.forEach(n -> listed.add(normal((String) n)));
        return listed;
    }

    /** Why a request whose {@code Host} header is {@code host} (null when it named none) is refused; empty when it is not. */
    Optional<String> refusal(String host) {
        if (host == null) {
            return Optional.empty();
        }
        String name = withoutPort(host.trim());
        if (name.startsWith("[") || IPV4.matcher(name).matches() || names.contains(normal(name))) {
            return Optional.empty();
        }
        return Optional.of("this UI is not reached as '" + name + "' (the request's Host): a page of another site may have made"
            + " its own name lead here. If it is a name of this UI's, add it to " + KEY + " in storm.yaml (now " + names + ")");
    }

    private static String withoutPort(String host) {
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? host : host.substring(0, end + 1);
        }
        int colon = host.lastIndexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }

    /** Lower case, without the root's trailing dot ({@code ui.example.} is {@code ui.example}). */
    private static String normal(String name) {
        String lower = name.trim().toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }
}
