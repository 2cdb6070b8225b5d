package io.whale.security;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.apache.storm.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who a client of Storm's TLS Thrift transport is: the subject of the verified certificate it presented. A client
 * without one is refused, never given an anonymous identity (upstream's TlsTransportPlugin up to 2.8.6 named it
 * {@code CN=ANONYMOUS} and served it on Java 14 and older: CVE-2026-41081, fixed in Storm 2.8.7). The chain is read
 * through {@link SSLSession#getPeerCertificates}: the {@code javax.security.cert} chain 2.8.3 asked for throws
 * {@link UnsupportedOperationException} on Java 15 and newer, which failed every TLS client's call.
 */
public final class TlsClientPrincipal {
    private static final Logger LOG = LoggerFactory.getLogger(TlsClientPrincipal.class);

    private TlsClientPrincipal() {
    }

    /**
     * The client's certificate subject, as Storm named it before ({@code CN=user, O=org}); a {@link TTransportException}
     * (the server closes the connection) when the client presented no verified X.509 certificate.
     */
    public static String of(SSLSession session, Object remote) throws TTransportException {
        Certificate[] chain;
        try {
            chain = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            LOG.warn("Refused a TLS client at {}: no verified client certificate ({})", remote, e.getMessage());
            throw new TTransportException("TLS client at " + remote + " refused: no verified client certificate", e);
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate certificate)) {
            LOG.warn("Refused a TLS client at {}: its certificate is not X.509", remote);
            throw new TTransportException("TLS client at " + remote + " refused: its certificate is not X.509");
        }
        return certificate.getSubjectX500Principal().toString();
    }
}
