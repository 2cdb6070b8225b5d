package io.whale.distribution;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A bulk TCP transfer between two emulated hosts, run there with {@code ip netns exec}: {@code receive PORT BYTES}
 * prints {@code listening}, then, once BYTES have arrived, {@code bits/s RATE} measured from the first byte to the
 * last; {@code send HOST PORT BYTES} writes BYTES as fast as TCP takes them.
 */
public final class BulkTransfer {
    private BulkTransfer() {
    }

    public static void main(String[] args) throws IOException {
        if (args[0].equals("receive")) {
            receive(Integer.parseInt(args[1]), Long.parseLong(args[2]));
        } else {
            send(args[1], Integer.parseInt(args[2]), Long.parseLong(args[3]));
        }
    }

    private static void receive(int port, long bytes) throws IOException {
        try (ServerSocket server = new ServerSocket(port)) {
            System.out.println("listening");
            System.out.flush();
            try (Socket socket = server.accept(); InputStream in = socket.getInputStream()) {
                byte[] buffer = new byte[64 * 1024];
                long first = in.read(buffer);
                long start = System.nanoTime();
                long received = 0;
                while (first + received < bytes) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        throw new IOException("the sender stopped after " + (first + received) + " of " + bytes + " bytes");
                    }
                    received += n;
                }
                System.out.printf("bits/s %d%n", Math.round(received * 8 / ((System.nanoTime() - start) / 1e9)));
            }
        }
    }

    private static void send(String host, int port, long bytes) throws IOException {
        try (Socket socket = new Socket(host, port); OutputStream out = socket.getOutputStream()) {
            byte[] buffer = new byte[64 * 1024];
            for (long sent = 0; sent < bytes; sent += buffer.length) {
                out.write(buffer, 0, (int) Math.min(buffer.length, bytes - sent));
            }
        }
    }
}
