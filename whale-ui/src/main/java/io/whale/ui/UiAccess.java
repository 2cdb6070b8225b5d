package io.whale.ui;

import io.whale.ui.source.NimbusGateway;
import io.whale.ui.source.UiError;
import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.Principal;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.storm.DaemonConfig;
import org.apache.storm.daemon.StormCommon;
import org.apache.storm.security.auth.DefaultHttpCredentialsPlugin;
import org.apache.storm.security.auth.IAuthorizer;
import org.apache.storm.security.auth.IHttpCredentialsPlugin;
import org.apache.storm.security.auth.ReqContext;
import org.apache.storm.security.auth.ServerAuthUtils;

/**
 * Who a request comes from and whether Nimbus's authorizer lets them do what it asks, as Storm's UI decides it: the user
 * is what {@code ui.http.creds.plugin} reads from the request (the principal {@code ui.filter} authenticated, or the
 * {@code doAsUser} it names, then checked by {@code nimbus.impersonation.authorizer}); {@code nimbus.authorizer} decides
 * the operation Storm's UI names for the path ({@code getClusterInfo}, {@code getTopology}, {@code killTopology}, ...),
 * with the topology's conf for a topology's. The user then asks Nimbus itself ({@code NimbusClient.getConfiguredClientAs}).
 * Without an authorizer every request is let through, as by Storm's UI.
 */
final class UiAccess {
    /** What a request asks of Nimbus: Storm's name of the operation and the topology it concerns (null: the cluster). */
    record Operation(String name, String topologyId) {
    }

    private final IHttpCredentialsPlugin credentials;
    private final IAuthorizer authorizer;
    private final IAuthorizer impersonation;

    private UiAccess(IHttpCredentialsPlugin credentials, IAuthorizer authorizer, IAuthorizer impersonation) {
        this.credentials = credentials;
        this.authorizer = authorizer;
        this.impersonation = impersonation;
    }

    /** The plugins {@code conf} names; a class that cannot be made is refused, naming its key. */
    static UiAccess of(Map<String, Object> conf) {
        IHttpCredentialsPlugin credentials = make(DaemonConfig.UI_HTTP_CREDS_PLUGIN, conf, ServerAuthUtils::getUiHttpCredentialsPlugin);
        return new UiAccess(credentials == null ? new DefaultHttpCredentialsPlugin() : credentials,
            authorizer(DaemonConfig.NIMBUS_AUTHORIZER, conf), authorizer(DaemonConfig.NIMBUS_IMPERSONATION_AUTHORIZER, conf));
    }

    private static IAuthorizer authorizer(String key, Map<String, Object> conf) {
        return make(key, conf, c -> {
            try {
                return StormCommon.mkAuthorizationHandler((String) c.get(key), c);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static <T> T make(String key, Map<String, Object> conf, Function<Map<String, Object>, T> maker) {
        try {
            return maker.apply(conf);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(key + ": " + conf.get(key) + " could not be loaded (" + NimbusGateway.rootMessage(e)
                + "); is its jar in extlib-daemon/?", e);
        }
    }

    /**
     * The user {@code request} comes from (null: nobody authenticated it), once the authorizers let them {@code operation};
     * a refusal is a {@link UiError} 403 naming the user and the operation. {@code topologyConf} gives a topology's conf,
     * asked only when an authorizer is configured.
     */
    String admit(HttpServletRequest request, Optional<Operation> operation, Function<String, Map<String, Object>> topologyConf) {
        ReqContext context = ReqContext.context();
        credentials.populateContext(context, request);
        context.setRemoteAddress(address(request.getRemoteAddr()));
        Principal principal = context.principal();
        String user = principal == null ? null : principal.getName();
        if (operation.isEmpty()) {
            return user;
        }
        Operation op = operation.get();
        if (context.isImpersonating()) {
            String real = context.realPrincipal().getName();
            if (impersonation == null) {
                throw new UiError(403, "'" + real + "' may not act as '" + user + "' (doAsUser): no "
                    + DaemonConfig.NIMBUS_IMPERSONATION_AUTHORIZER + " is configured to allow it");
            }
            if (!impersonation.permit(context, op.name(), Map.of())) {
                throw new UiError(403, "'" + real + "' may not act as '" + user + "' (doAsUser), says "
                    + DaemonConfig.NIMBUS_IMPERSONATION_AUTHORIZER);
            }
        }
        if (authorizer == null) {
            return user;
        }
        if (principal == null) {
            throw new UiError(403, op.name() + " is refused to a user nobody authenticated: this cluster's "
                + DaemonConfig.NIMBUS_AUTHORIZER + " decides per user, so log in through ui.filter");
        }
        Map<String, Object> conf = op.topologyId() == null ? Map.of() : topologyConf.apply(op.topologyId());
        if (!authorizer.permit(context, op.name(), conf)) {
            throw new UiError(403, "'" + user + "' is not allowed " + op.name()
                + (op.topologyId() == null ? "" : " on topology " + op.topologyId()) + " (" + DaemonConfig.NIMBUS_AUTHORIZER + ")");
        }
        return user;
    }

    private static InetAddress address(String remote) {
        try {
            return remote == null ? null : InetAddress.getByName(remote);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
