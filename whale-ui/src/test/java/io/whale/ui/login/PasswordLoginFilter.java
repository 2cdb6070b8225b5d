package io.whale.ui.login;

import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * A login filter for tests, configured as an operator configures Storm's {@code ui.filter}: HTTP Basic against the
 * users of its init parameter {@code users} ({@code name:password,...}); an authenticated request goes on with its user as
 * the principal, any other is answered 401.
 */
public class PasswordLoginFilter extends HttpFilter {
    private static final long serialVersionUID = 1L;
    private final Map<String, String> passwords = new HashMap<>();

    @Override
    public void init(FilterConfig config) throws ServletException {
        super.init(config);
        for (String entry : config.getInitParameter("users").split(",")) {
            String[] user = entry.trim().split(":", 2);
            passwords.put(user[0], user[1]);
        }
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws IOException, ServletException {
        String user = user(request.getHeader("Authorization"));
        if (user == null) {
            response.setHeader("WWW-Authenticate", "Basic realm=\"whale ui\"");
            response.sendError(401, "log in");
            return;
        }
        chain.doFilter(new HttpServletRequestWrapper(request) {
            @Override
            public Principal getUserPrincipal() {
                return () -> user;
            }

            @Override
            public String getRemoteUser() {
                return user;
            }
        }, response);
    }

    /** The user the header proves, or null. */
    private String user(String authorization) {
        if (authorization == null || !authorization.startsWith("Basic ")) {
            return null;
        }
        String[] pair = new String(Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8).split(":", 2);
        return pair.length == 2 && pair[1].equals(passwords.get(pair[0])) ? pair[0] : null;
    }

    /** The header logging {@code user} in with {@code password}. */
    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
