package io.whale.rdma.ucx;

import io.whale.rdma.RdmaException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;

/**
 * Out-of-band exchange of UCX worker addresses over a TCP socket. Connecting by worker address works with every
 * UCX transport (UCX's own sockaddr connect does not work with {@code UCX_TLS=sm}); the socket then stays open as
 * a liveness signal, so a killed peer is noticed at once on every transport.
 */
final class Bootstrap {
    private static final int MAGIC = 0x57484c55; // "WHLU"
    private static final int MAX_ADDRESS_BYTES = 64 * 1024;

    record PeerInfo(byte[] workerAddress, long connectionId) {
    }

    private Bootstrap() {
    }

    static void write(SocketChannel channel, byte[] workerAddress, long connectionId) throws IOException {
        DataOutputStream out = new DataOutputStream(channel.socket().getOutputStream());
        out.writeInt(MAGIC);
        out.writeInt(workerAddress.length);
        out.write(workerAddress);
        out.writeLong(connectionId);
        out.flush();
    }

    static PeerInfo read(SocketChannel channel, int timeoutMillis) throws IOException {
        channel.socket().setSoTimeout(timeoutMillis);
        DataInputStream in = new DataInputStream(channel.socket().getInputStream());
        try {
            int magic = in.readInt();
            if (magic != MAGIC) {
                throw new RdmaException("peer " + channel.getRemoteAddress() + " is not a Whale UCX endpoint");
            }
            int length = in.readInt();
            if (length <= 0 || length > MAX_ADDRESS_BYTES) {
                throw new RdmaException("peer sent a worker address of " + length + " bytes");
            }
            byte[] address = new byte[length];
            in.readFully(address);
            return new PeerInfo(address, in.readLong());
        } catch (SocketTimeoutException e) {
            throw new RdmaException("peer " + channel.getRemoteAddress() + " did not answer the UCX bootstrap within "
                    + timeoutMillis + " ms", e);
        }
    }
}
