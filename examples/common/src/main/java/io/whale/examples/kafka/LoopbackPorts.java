package io.whale.examples.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Picks currently free TCP ports on 127.0.0.1 (the OS chooses; the port is released before use). */
public final class LoopbackPorts {
    private LoopbackPorts() {
    }

    public static int free() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
