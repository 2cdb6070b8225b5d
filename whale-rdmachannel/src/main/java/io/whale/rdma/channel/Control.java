package io.whale.rdma.channel;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The channel's control messages (two-sided SEND / active messages). A BATCH says where in the sender's ring a work
 * request lies, and the receiver fetches it with a one-sided READ; a work request of at most
 * {@code whale.rdma.inline.bytes} travels inside its announcement instead (INLINE), sparing the READ's round trip. Either
 * stays in the sender's ring until CONSUMED, so a reconnect announces it again.
 * <pre>
 *   HELLO    sender -> receiver  channelId, nonce[16], mac[32]     mac = HMAC(secret, "hello" | channelId | nonce)
 *   WELCOME  receiver -> sender  mac[32], rnonce[16], lastDeliveredSeq
 *                                                                   mac = HMAC(secret, "welcome" | channelId | nonce | rnonce)
 *   REJECT   receiver -> sender  reason (UTF-8)
 *   RING     sender -> receiver  address, length, first seq, key, mac[32]
 *                                sent only after WELCOME proved the peer; mac = HMAC(secret, "ring" | channelId | nonce |
 *                                rnonce | address, length, first seq, key), so a replayed HELLO cannot announce a ring
 *   BATCH    sender -> receiver  seq, start counter, length, message count
 *   INLINE   sender -> receiver  seq, start counter, length, message count, the work request's bytes
 *   CONSUMED receiver -> sender  seq, end counter                   everything up to seq is released (one may cover
 *                                                                   several: whale.rdma.consumed.delay.ms)
 *   NOTICE   receiver -> sender  payload                            application notice (Storm: backpressure, load)
 * </pre>
 */
final class Control {
    static final byte HELLO = 1;
    static final byte WELCOME = 2;
    static final byte REJECT = 3;
    static final byte RING = 4;
    static final byte BATCH = 5;
    static final byte CONSUMED = 6;
    static final byte NOTICE = 7;
    static final byte INLINE = 8;
    /** A BATCH's bytes, and an INLINE's before its work request. */
    static final int BATCH_BYTES = 1 + 8 + 8 + 4 + 4;
    /** Notices are small status messages, never data. */
    static final int MAX_NOTICE_BYTES = 64 * 1024;

    private Control() {
    }

    static ByteBuffer hello(long channelId, byte[] nonce, byte[] mac) {
        return ByteBuffer.allocate(1 + 8 + nonce.length + mac.length).put(HELLO).putLong(channelId)
                .put(nonce).put(mac).flip();
    }

    static ByteBuffer welcome(byte[] mac, byte[] receiverNonce, long lastDeliveredSeq) {
        return ByteBuffer.allocate(1 + mac.length + receiverNonce.length + 8).put(WELCOME).put(mac).put(receiverNonce)
                .putLong(lastDeliveredSeq).flip();
    }

    static ByteBuffer reject(String reason) {
        byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(1 + text.length).put(REJECT).put(text).flip();
    }

    /** A RING message's fields, as they travel and as its MAC covers them. */
    static byte[] ringFields(long address, int length, long firstSeq, byte[] remoteKey) {
        return ByteBuffer.allocate(8 + 4 + 8 + 2 + remoteKey.length).putLong(address).putInt(length).putLong(firstSeq)
                .putShort((short) remoteKey.length).put(remoteKey).array();
    }

    static ByteBuffer ring(byte[] ringFields, byte[] mac) {
        return ByteBuffer.allocate(1 + ringFields.length + mac.length).put(RING).put(ringFields).put(mac).flip();
    }

    static ByteBuffer batch(BatchDescriptor batch) {
        return descriptor(ByteBuffer.allocate(BATCH_BYTES), BATCH, batch).flip();
    }

    /** An INLINE message: {@code batch} with its bytes, {@code data}'s remaining ones. */
    static ByteBuffer inline(BatchDescriptor batch, ByteBuffer data) {
        return descriptor(ByteBuffer.allocate(BATCH_BYTES + data.remaining()), INLINE, batch).put(data).flip();
    }

    private static ByteBuffer descriptor(ByteBuffer out, byte type, BatchDescriptor batch) {
        return out.put(type).putLong(batch.seq()).putLong(batch.start()).putInt(batch.length()).putInt(batch.messages());
    }

    static BatchDescriptor descriptor(ByteBuffer message) {
        return new BatchDescriptor(message.getLong(), message.getLong(), message.getInt(), message.getInt());
    }

    static ByteBuffer consumed(long seq, long end) {
        return ByteBuffer.allocate(1 + 8 + 8).put(CONSUMED).putLong(seq).putLong(end).flip();
    }

    static ByteBuffer notice(ByteBuffer payload) {
        if (payload.remaining() > MAX_NOTICE_BYTES) {
            throw new IllegalArgumentException("notice of " + payload.remaining() + " bytes exceeds "
                    + MAX_NOTICE_BYTES);
        }
        return ByteBuffer.allocate(1 + payload.remaining()).put(NOTICE).put(payload.duplicate()).flip();
    }

    static byte[] bytes(ByteBuffer message, int length) {
        byte[] out = new byte[length];
        message.get(out);
        return out;
    }

    static String text(ByteBuffer message) {
        return StandardCharsets.UTF_8.decode(message).toString();
    }
}
