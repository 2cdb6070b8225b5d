package io.whale.ui;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First on every request: the UI's security headers on whatever answers it (a login filter's refusal too), and a request
 * naming a host that is not one of the UI's ({@link UiHosts}) refused before anything is read, authenticated or asked.
 */
final class OwnNamesOnly extends HttpFilter {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(OwnNamesOnly.class);
    private final transient UiHosts hosts;

    OwnNamesOnly(UiHosts hosts) {
        this.hosts = hosts;
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain) throws IOException, ServletException {
        UiServer.SECURITY_HEADERS.forEach(response::setHeader);
        Optional<String> refusal = hosts.refusal(request.getHeader("Host"));
        if (refusal.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        LOG.warn("{} {} from {}: {}", request.getMethod(), request.getRequestURI(), request.getRemoteAddr(), refusal.get());
        UiServlet.send(response, 403, "text/plain; charset=utf-8", refusal.get());
    }
}
