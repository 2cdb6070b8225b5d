package io.whale.examples.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;

class ProcessConnectionsTest {

    @Test
    void decodesProcNetAddresses() {
        assertEquals("127.0.0.1", ProcessConnections.decode("0100007F"));
        assertEquals("10.1.2.3", ProcessConnections.decode("0302010A"));
        assertEquals("127.0.0.1", ProcessConnections.decode("0000000000000000FFFF00000100007F"));
        assertEquals("::1", ProcessConnections.decode("00000000000000000000000001000000"));
    }

    @Test
    void seesThisProcesssOwnLoopbackConnection() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
             Socket accepted = server.accept()) {
            OutputStream out = client.getOutputStream();
            out.write(1);
            InputStream in = accepted.getInputStream();
            assertEquals(1, in.read());
            assertTrue(ProcessConnections.remoteAddresses().contains("127.0.0.1"));
        }
    }
}
