package io.whale.rdma.ucx;

import io.whale.rdma.spi.Completion;
import io.whale.rdma.spi.EndpointHandler;
import io.whale.rdma.spi.RdmaEndpoint;
import io.whale.rdma.spi.RegisteredRegion;
import io.whale.rdma.spi.RemoteRegion;
import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import org.openucx.jucx.UcxCallback;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One UCX endpoint to a peer worker. Control messages are active messages whose header starts with the
 * connection id the peer gave us, so the peer can route them (UCX does not say which endpoint an AM came from).
 */
final class UcxEndpoint implements RdmaEndpoint {
    private static final Logger LOG = LoggerFactory.getLogger(UcxEndpoint.class);
    private final UcxEngine engine;
    private final long connectionId;
    private final long peerConnectionId;
    private final String peer;
    private final SocketChannel socket;
    private EndpointHandler handler;
    private UcpEndpoint ucp;
    private final List<UcxRemoteRegion> attached = new ArrayList<>();
    /** No new operation is posted once set. */
    private volatile boolean released;
    private boolean closed;

    UcxEndpoint(UcxEngine engine, long connectionId, long peerConnectionId, String peer, SocketChannel socket) {
        this.engine = engine;
        this.connectionId = connectionId;
        this.peerConnectionId = peerConnectionId;
        this.peer = peer;
        this.socket = socket;
    }

    void setHandler(EndpointHandler handler) {
        this.handler = handler;
    }

    EndpointHandler handler() {
        return handler;
    }

    long connectionId() {
        return connectionId;
    }

    SocketChannel socket() {
        return socket;
    }

    /**
     * Creates the UCX endpoint. With peer error handling UCX reports a dead peer on the endpoint, but some
     * transports (shared memory only, {@code UCX_TLS=sm}) do not support it; then the bootstrap socket alone
     * detects peer loss.
     */
    void open(UcpWorker worker, byte[] peerWorkerAddress, boolean peerErrorHandling) {
        ByteBuffer address = ByteBuffer.allocateDirect(peerWorkerAddress.length).put(peerWorkerAddress).flip();
        UcpEndpointParams params = new UcpEndpointParams()
                .setUcpAddress(address)
                .setName("whale-" + peer)
                .setErrorHandler((ep, status, message) -> engine.fail(this,
                        "UCX endpoint to " + peer + " failed (status " + status + "): " + message));
        if (peerErrorHandling) {
            params.setPeerErrorHandlingMode();
        }
        ucp = worker.newEndpoint(params);
    }

    void markReleased() {
        released = true;
    }

    /** Frees UCX and socket resources; progress thread only. Returns the UCX close request, or null. */
    UcpRequest release() {
        if (closed) {
            return null;
        }
        closed = true;
        released = true;
        UcpRequest closing = null;
        try {
            attached.forEach(UcxRemoteRegion::destroy); // remote keys go before their endpoint
            closing = ucp == null ? null : ucp.closeNonBlockingForce();
        } catch (RuntimeException e) {
            LOG.debug("closing the UCX endpoint to {} failed", peer, e);
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        return closing;
    }

    @Override
    public void send(ByteBuffer message, Completion completion) {
        int length = message.remaining();
        if (length > UcxEngine.MAX_CONTROL_BYTES) {
            throw new IllegalArgumentException("control message of " + length + " bytes exceeds "
                    + UcxEngine.MAX_CONTROL_BYTES);
        }
        ByteBuffer header = ByteBuffer.allocateDirect(Long.BYTES + length);
        header.putLong(peerConnectionId).put(message.duplicate()).flip();
        post(completion, () -> ucp.sendAmNonBlocking(UcxEngine.CONTROL_AM_ID, UcxUtils.getAddress(header),
                header.remaining(), 0, 0, 0, callback(completion, header), UcxEngine.hostMemory()));
    }

    @Override
    public RemoteRegion attach(long address, int length, byte[] remoteKey) {
        ByteBuffer packed = ByteBuffer.allocateDirect(remoteKey.length).put(remoteKey).flip();
        return engine.call(() -> {
            UcxRemoteRegion region = new UcxRemoteRegion(engine, address, length, ucp.unpackRemoteKey(packed));
            attached.add(region);
            return region;
        });
    }

    @Override
    public void read(RemoteRegion source, long sourceOffset, RegisteredRegion target, long targetOffset, int length,
                     Completion completion) {
        RdmaEndpoint.checkBounds("READ source", source.length(), sourceOffset, length);
        RdmaEndpoint.checkBounds("READ target", target.length(), targetOffset, length);
        UcxRemoteRegion remote = (UcxRemoteRegion) source;
        UcxRegion local = (UcxRegion) target;
        post(completion, () -> ucp.getNonBlocking(remote.address() + sourceOffset, remote.key,
                target.address() + targetOffset, length, callback(completion, null),
                UcxEngine.hostMemory().setMemoryHandle(local.memory)));
    }

    /**
     * Runs a UCX operation on the progress thread; a connection closed by then, or an operation UCX refuses
     * synchronously (endpoint in error), becomes a failed completion.
     */
    private void post(Completion completion, Runnable operation) {
        engine.execute(() -> {
            if (released) {
                completion.onError("connection to " + peer + " is closed");
                return;
            }
            try {
                operation.run();
            } catch (RuntimeException e) {
                completion.onError("UCX refused the operation to " + peer + ": " + e.getMessage());
            }
        });
    }

    /** The callback also keeps {@code pinned} (a buffer UCX reads from) reachable until the request ends. */
    private static UcxCallback callback(Completion completion, ByteBuffer pinned) {
        return new UcxCallback() {
            private final ByteBuffer keepAlive = pinned;

            @Override
            public void onSuccess(UcpRequest request) {
                Reference.reachabilityFence(keepAlive);
                completion.onSuccess();
            }

            @Override
            public void onError(int status, String message) {
                Reference.reachabilityFence(keepAlive);
                completion.onError("UCX status " + status + ": " + message);
            }
        };
    }

    @Override
    public String peer() {
        return peer;
    }

    @Override
    public void close() {
        engine.closeEndpoint(this);
    }

    @Override
    public String toString() {
        return "UcxEndpoint[" + peer + ", id=" + connectionId + "]";
    }
}
