package io.whale.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.lang.reflect.Constructor;
import java.net.InetSocketAddress;
import java.security.Principal;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Set;
import java.util.stream.Collectors;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.security.auth.x500.X500Principal;
import org.apache.storm.security.auth.ReqContext;
import org.apache.storm.thrift.TProcessor;
import org.apache.storm.thrift.protocol.TProtocol;
import org.apache.storm.thrift.transport.TSocket;
import org.apache.storm.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;

/**
 * The patched TLS Thrift server (0021-tls-refuses-clients-without-a-verified-certificate.patch): its processor, as
 * TlsTransportPlugin's server wraps every call, given a client socket whose session did or did not verify a
 * certificate. The sessions answer the deprecated javax.security.cert chain as Java 15 and newer do (throwing), so
 * upstream 2.8.3's processor fails both calls; on older Java it served the unverified one as CN=ANONYMOUS
 * (CVE-2026-41081).
 */
class TlsClientPrincipalTest {
    private static final InetSocketAddress CLIENT = new InetSocketAddress("10.0.0.7", 40123);

    @Test
    void shouldRefuseAClientWithoutAVerifiedCertificateBeforeItsCallIsServed() throws Exception {
        SSLSession session = session();
        when(session.getPeerCertificates()).thenThrow(new SSLPeerUnverifiedException("peer not authenticated"));
        TProcessor served = mock(TProcessor.class);

        TTransportException refused = assertThrows(TTransportException.class, () -> tlsServerProcessor(served).process(call(session), mock(TProtocol.class)));

        assertTrue(refused.getMessage().contains("TLS client at " + CLIENT + " refused: no verified client certificate"), refused.getMessage());
        verify(served, never()).process(any(), any());
    }

    @Test
    void shouldRefuseAClientWhoseCertificateIsNotX509() throws Exception {
        SSLSession session = session();
        when(session.getPeerCertificates()).thenReturn(new Certificate[] {mock(Certificate.class)});
        TProcessor served = mock(TProcessor.class);

        assertThrows(TTransportException.class, () -> tlsServerProcessor(served).process(call(session), mock(TProtocol.class)));

        verify(served, never()).process(any(), any());
    }

    @Test
    void shouldServeAVerifiedClientAsItsCertificatesSubject() throws Exception {
        X509Certificate certificate = mock(X509Certificate.class);
        when(certificate.getSubjectX500Principal()).thenReturn(new X500Principal("CN=alice,O=Whale"));
        SSLSession session = session();
        when(session.getPeerCertificates()).thenReturn(new Certificate[] {certificate});
        TProcessor served = mock(TProcessor.class);
        TProtocol in = call(session);

        tlsServerProcessor(served).process(in, mock(TProtocol.class));

        verify(served).process(any(), any());
        Set<String> principals = ReqContext.context().subject().getPrincipals().stream().map(Principal::getName).collect(Collectors.toSet());
        assertEquals(Set.of("CN=alice, O=Whale"), principals, "the subject as Storm named it (X500Name's form)");
    }

    /** A TLS session as Java 15 and newer's: the deprecated javax.security.cert chain is not served. */
    @SuppressWarnings("removal")
    private static SSLSession session() throws SSLPeerUnverifiedException {
        SSLSession session = mock(SSLSession.class);
        when(session.getPeerCertificateChain()).thenThrow(new UnsupportedOperationException("use getPeerCertificates()"));
        return session;
    }

    /** A call arriving on a TLS socket whose handshake left {@code session}. */
    private static TProtocol call(SSLSession session) {
        SSLSocket socket = mock(SSLSocket.class);
        when(socket.getSession()).thenReturn(session);
        when(socket.getRemoteSocketAddress()).thenReturn(CLIENT);
        when(socket.getInetAddress()).thenReturn(CLIENT.getAddress());
        TSocket transport = mock(TSocket.class);
        when(transport.getSocket()).thenReturn(socket);
        TProtocol in = mock(TProtocol.class);
        when(in.getTransport()).thenReturn(transport);
        return in;
    }

    /** The processor TlsTransportPlugin's server puts in front of Nimbus's (a private class of the patched core). */
    private static TProcessor tlsServerProcessor(TProcessor served) throws ReflectiveOperationException {
        Constructor<?> wrap = Class.forName("org.apache.storm.security.auth.tls.TlsTransportPlugin$TTlsWrapProcessor")
            .getDeclaredConstructor(TProcessor.class);
        wrap.setAccessible(true);
        return (TProcessor) wrap.newInstance(served);
    }
}
