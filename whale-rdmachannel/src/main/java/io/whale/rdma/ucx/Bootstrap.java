package io.whale.rdma.ucx;

import io.whale.rdma.RdmaException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
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

    /**
     * A bootstrap client socket. It has {@code SO_REUSEADDR}, like the listeners: a client socket's own end takes
     * an ephemeral port, and when worker ports lie in the ephemeral range (LocalCluster tests pick them there) one
     * may be a worker's port; without the option it would keep that worker's listener from binding while it is
     * open and for TIME_WAIT after it (Linux lets a listener with the option share a port only with sockets that
     * have it too).
     */
    static SocketChannel open() throws IOException {
        SocketChannel channel = SocketChannel.open();
        channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        return channel;
    }

    /**
     * Connects {@code channel}, refusing a TCP self-connection: with nothing listening on a port of the ephemeral
     * range, the kernel may pick that same port for the client's end, and the socket then connects to itself
     * (simultaneous open), reads its own bootstrap back and holds the port the listener is about to bind.
     */
    static void connect(SocketChannel channel, InetSocketAddress remote, int timeoutMillis) throws IOException {
        channel.socket().connect(remote, timeoutMillis);
        if (channel.getLocalAddress().equals(channel.getRemoteAddress())) {
            throw new ConnectException("connected to itself on " + remote + " (nothing listens there yet)");
        }
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
        } catch (EOFException e) {
            throw new RdmaException("peer " + channel.getRemoteAddress() + " closed the connection during the UCX"
                    + " bootstrap (not a Whale RDMA endpoint, or it was shutting down)", e);
        } catch (SocketTimeoutException e) {
            throw new RdmaException("peer " + channel.getRemoteAddress() + " did not answer the UCX bootstrap within "
                    + timeoutMillis + " ms", e);
        }
    }
}
