package io.whale.rdma.channel;

import io.whale.rdma.RdmaException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One work request fetched by READ into the receiver's mirror of the sender's ring. Its message views are valid
 * until {@link #release()}; releasing reports consumption to the sender, which then reuses that ring space.
 */
public final class InboundBatch {
    private final InboundSession session;
    private final BatchDescriptor descriptor;
    private final ByteBuffer bytes;
    private boolean released;

    InboundBatch(InboundSession session, BatchDescriptor descriptor, ByteBuffer bytes) {
        this.session = session;
        this.descriptor = descriptor;
        this.bytes = bytes;
    }

    public long seq() {
        return descriptor.seq();
    }

    public int messageCount() {
        return descriptor.messages();
    }

    public int byteCount() {
        return descriptor.length();
    }

    public String peer() {
        return session.peer();
    }

    /**
     * Where notices to this batch's sender go ({@link ChannelServer#broadcast}, to this sender only, in order with
     * the others): from any thread, also after {@link #release()}; once the channel is closed they go nowhere.
     */
    public Consumer<ByteBuffer> replies() {
        return session::notice;
    }

    /** Calls {@code consumer} with a read-only view of each message, in send order. */
    public void forEachMessage(Consumer<ByteBuffer> consumer) {
        ByteBuffer view = bytes.asReadOnlyBuffer();
        int position = 0;
        for (int i = 0; i < descriptor.messages(); i++) {
            if (position + ChannelSender.FRAME_HEADER > view.limit()) {
                throw corrupt("frame header of message " + i + " runs past the batch end");
            }
            int length = view.getInt(position);
            int start = position + ChannelSender.FRAME_HEADER;
            if (length < 0 || start + length > view.limit()) {
                throw corrupt("message " + i + " claims " + length + " bytes");
            }
            consumer.accept(view.slice(start, length));
            position = start + length;
        }
        if (position != view.limit()) {
            throw corrupt((view.limit() - position) + " bytes left after the last message");
        }
    }

    /** Copies the messages out, so the batch can be released at once. */
    public List<byte[]> copyMessages() {
        List<byte[]> out = new ArrayList<>(descriptor.messages());
        forEachMessage(view -> {
            byte[] copy = new byte[view.remaining()];
            view.get(copy);
            out.add(copy);
        });
        return out;
    }

    private RdmaException corrupt(String detail) {
        return new RdmaException("corrupt work request " + descriptor + " from " + session.peer() + ": " + detail);
    }

    /** Reports the batch consumed; the views must not be used afterwards. Idempotent, any thread. */
    public synchronized void release() {
        if (!released) {
            released = true;
            session.release(this);
        }
    }

    BatchDescriptor descriptor() {
        return descriptor;
    }
}
