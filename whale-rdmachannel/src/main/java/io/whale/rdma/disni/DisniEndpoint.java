package io.whale.rdma.disni;

import com.ibm.disni.RdmaEndpoint;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvWC;
import io.whale.rdma.spi.Completion;
import io.whale.rdma.spi.EndpointHandler;
import io.whale.rdma.spi.RegisteredRegion;
import io.whale.rdma.spi.RemoteRegion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SPI endpoint over one DiSNI verbs endpoint (a reliable-connected queue pair). Work requests are posted from
 * the calling thread; completions arrive on DiSNI's completion-queue thread and are handed to the engine's
 * progress thread, where the channel layer expects all callbacks. Control messages use SEND/RECV with a small
 * pool of registered slots per direction.
 */
final class DisniEndpoint implements io.whale.rdma.spi.RdmaEndpoint {
    static final int SLOTS = 64;
    static final int SLOT_BYTES = 4096;

    private final RdmaEndpoint verbs;
    private final Executor progress;
    private final String peer;
    private final AtomicLong wrIds = new AtomicLong(1);
    private final Map<Long, Completion> pending = new ConcurrentHashMap<>();
    private final ArrayDeque<Integer> freeSendSlots = new ArrayDeque<>();
    private final ArrayDeque<Runnable> waitingForSlot = new ArrayDeque<>();
    private volatile EndpointHandler handler;
    private volatile boolean closed;
    private ByteBuffer sendSlots;
    private IbvMr sendMr;
    private ByteBuffer recvSlots;
    private IbvMr recvMr;

    DisniEndpoint(RdmaEndpoint verbs, Executor progress, String peer) {
        this.verbs = verbs;
        this.progress = progress;
        this.peer = peer;
    }

    void setHandler(EndpointHandler handler) {
        this.handler = handler;
    }

    /** Registers the control slots and posts every receive slot; called once the queue pair is connected. */
    void startControl() throws IOException {
        sendSlots = ByteBuffer.allocateDirect(SLOTS * SLOT_BYTES);
        recvSlots = ByteBuffer.allocateDirect(SLOTS * SLOT_BYTES);
        sendMr = verbs.registerMemory(sendSlots).execute().free().getMr();
        recvMr = verbs.registerMemory(recvSlots).execute().free().getMr();
        synchronized (freeSendSlots) {
            for (int slot = 0; slot < SLOTS; slot++) {
                freeSendSlots.add(slot);
            }
        }
        for (int slot = 0; slot < SLOTS; slot++) {
            postReceive(slot);
        }
    }

    private void postReceive(int slot) throws IOException {
        long wrId = recvWrId(slot);
        verbs.postRecv(List.of(DisniWorkRequests.receive(wrId, recvMr.getAddr() + (long) slot * SLOT_BYTES,
                recvMr.getLkey(), SLOT_BYTES))).execute().free();
    }

    /** Receive work requests carry negative ids, so a completion says at once which kind it is. */
    private static long recvWrId(int slot) {
        return -1L - slot;
    }

    @Override
    public void send(ByteBuffer message, Completion completion) {
        int length = message.remaining();
        if (length > SLOT_BYTES) {
            throw new IllegalArgumentException("control message of " + length + " bytes exceeds " + SLOT_BYTES);
        }
        postSend(ByteBuffer.allocate(length).put(message.duplicate()).flip(), completion);
    }

    private void postSend(ByteBuffer message, Completion completion) {
        int slot;
        synchronized (freeSendSlots) {
            Integer free = freeSendSlots.poll();
            if (free == null) {
                waitingForSlot.add(() -> postSend(message, completion));
                return;
            }
            slot = free;
        }
        long offset = (long) slot * SLOT_BYTES;
        sendSlots.put((int) offset, message, 0, message.remaining());
        int length = message.remaining();
        post(DisniWorkRequests.send(0, sendMr.getAddr() + offset, sendMr.getLkey(), length), new Completion() {
            @Override
            public void onSuccess() {
                releaseSendSlot(slot);
                completion.onSuccess();
            }

            @Override
            public void onError(String reason) {
                releaseSendSlot(slot);
                completion.onError(reason);
            }
        });
    }

    private void releaseSendSlot(int slot) {
        Runnable next;
        synchronized (freeSendSlots) {
            freeSendSlots.add(slot);
            next = waitingForSlot.poll();
        }
        if (next != null) {
            next.run();
        }
    }

    @Override
    public RemoteRegion attach(long address, int length, byte[] remoteKey) {
        if (remoteKey.length != Integer.BYTES) {
            throw new IllegalArgumentException("a verbs rkey has 4 bytes, got " + remoteKey.length);
        }
        return new DisniRemoteRegion(address, length, ByteBuffer.wrap(remoteKey).getInt());
    }

    @Override
    public void read(RemoteRegion source, long sourceOffset, RegisteredRegion target, long targetOffset, int length,
                     Completion completion) {
        io.whale.rdma.spi.RdmaEndpoint.checkBounds("READ source", source.length(), sourceOffset, length);
        io.whale.rdma.spi.RdmaEndpoint.checkBounds("READ target", target.length(), targetOffset, length);
        DisniRemoteRegion remote = (DisniRemoteRegion) source;
        IbvMr local = ((DisniRegion) target).mr();
        post(DisniWorkRequests.read(0, local.getAddr() + targetOffset, local.getLkey(), length,
                remote.address() + sourceOffset, remote.rkey()), completion);
    }

    /** Gives the work request an id, remembers its completion and posts it. */
    private void post(IbvSendWR wr, Completion completion) {
        if (closed) {
            progress.execute(() -> completion.onError("connection to " + peer + " is closed"));
            return;
        }
        long wrId = wrIds.getAndIncrement();
        wr.setWr_id(wrId);
        pending.put(wrId, completion);
        try {
            verbs.postSend(List.of(wr)).execute().free();
        } catch (IOException e) {
            pending.remove(wrId);
            progress.execute(() -> completion.onError("ibv_post_send to " + peer + " failed: " + e.getMessage()));
        }
    }

    /** A work completion from DiSNI's completion-queue thread. */
    void onCompletion(IbvWC wc) {
        long wrId = wc.getWr_id();
        boolean success = wc.getStatus() == IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal();
        if (wrId < 0) {
            int slot = (int) (-1L - wrId);
            if (!success) {
                progress.execute(() -> fail("receive failed with work completion status " + wc.getStatus()));
                return;
            }
            byte[] bytes = new byte[wc.getByte_len()];
            recvSlots.get(slot * SLOT_BYTES, bytes);
            try {
                postReceive(slot);
            } catch (IOException e) {
                progress.execute(() -> fail("cannot repost a receive: " + e.getMessage()));
                return;
            }
            progress.execute(() -> handler.onControl(this, ByteBuffer.wrap(bytes)));
            return;
        }
        Completion completion = pending.remove(wrId);
        if (completion == null) {
            return;
        }
        int status = wc.getStatus();
        progress.execute(() -> {
            if (success) {
                completion.onSuccess();
            } else {
                completion.onError("work request to " + peer + " failed with status " + status);
                fail("work completion status " + status);
            }
        });
    }

    void failLater(String reason) {
        progress.execute(() -> fail(reason));
    }

    /** Connection lost (CM disconnect or failed completion); progress thread. */
    void fail(String reason) {
        if (closed) {
            return;
        }
        closed = true;
        pending.values().forEach(completion -> completion.onError(reason));
        pending.clear();
        closeVerbs();
        handler.onError(this, "connection to " + peer + " lost: " + reason);
    }

    @Override
    public String peer() {
        return peer;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            closeVerbs();
        }
    }

    private void closeVerbs() {
        try {
            verbs.close();
        } catch (IOException e) {
            // already failing; nothing else to release
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
