package io.whale.ui;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether a topology action (a POST) may have come from a page of another site (cross-site request forgery): a browser
 * names the page's origin in {@code Origin} (or, older ones, {@code Referer}) on every cross-site POST, so an action
 * whose named origin is not this UI's own host and port is refused. A request naming no origin is a command-line or
 * script client (curl, Storm's REST users), which a forged page cannot be, and is served.
 */
final class SameOrigin {
    private SameOrigin() {
    }

    /**
     * Why an action from {@code origin} / {@code referer} (either may be null) to the UI reached as {@code host} (the
     * request's {@code Host} header) is refused; empty when it is not.
     */
    static Optional<String> refusal(String origin, String referer, String host) {
        String named = origin != null ? origin : referer;
        if (named == null) {
            return Optional.empty();
        }
        String authority = authority(named);
        if (host != null && authority != null && authority.equals(host.trim().toLowerCase(Locale.ROOT))) {
            return Optional.empty();
        }
        return Optional.of("a topology action is taken only from the UI's own pages: this one came from " + named
            + (host == null ? " (and the request named no Host)" : ", not from " + host));
    }

    /** host[:port] of an origin or URL, lower case, without the default port of its scheme; null if unreadable. */
    private static String authority(String url) {
        try {
            URI uri = URI.create(url.trim());
            if (uri.getHost() == null) {
                return null;
            }
            int port = uri.getPort();
            boolean defaultPort = port == -1 || ("http".equalsIgnoreCase(uri.getScheme()) && port == 80)
                || ("https".equalsIgnoreCase(uri.getScheme()) && port == 443);
            String host = uri.getHost().toLowerCase(Locale.ROOT);
            return defaultPort ? host : host + ":" + port;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
