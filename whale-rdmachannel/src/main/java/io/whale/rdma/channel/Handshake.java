package io.whale.rdma.channel;

import io.whale.rdma.RdmaException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Mutual proof of the shared topology secret, with a fresh nonce from each side, so the secret itself never travels and
 * nothing a listener records can be played back: the sender proves it knows the secret over its own nonce (HELLO), the
 * receiver over both nonces (WELCOME), and the sender's ring announcement carries a MAC over both nonces and the ring's
 * fields (RING), so a HELLO replayed by someone without the secret gets a WELCOME but can announce no ring. The sender's
 * ring key is revealed only to a proven receiver.
 */
final class Handshake {
    static final int NONCE_BYTES = 16;
    static final int MAC_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    Handshake(byte[] secret) {
        if (secret.length == 0) {
            throw new IllegalArgumentException("the topology secret must not be empty");
        }
        this.key = new SecretKeySpec(secret, "HmacSHA256");
    }

    static byte[] newNonce() {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    byte[] helloMac(long channelId, byte[] senderNonce) {
        return mac("whale-rdma-hello", channelId, senderNonce);
    }

    byte[] welcomeMac(long channelId, byte[] senderNonce, byte[] receiverNonce) {
        return mac("whale-rdma-welcome", channelId, senderNonce, receiverNonce);
    }

    /** Over both nonces and the RING message's fields ({@link Control#ringFields}). */
    byte[] ringMac(long channelId, byte[] senderNonce, byte[] receiverNonce, byte[] ringFields) {
        return mac("whale-rdma-ring", channelId, senderNonce, receiverNonce, ringFields);
    }

    static boolean matches(byte[] expected, byte[] actual) {
        return MessageDigest.isEqual(expected, actual);
    }

    private byte[] mac(String purpose, long channelId, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(purpose.getBytes(StandardCharsets.US_ASCII));
            mac.update(ByteBuffer.allocate(Long.BYTES).putLong(channelId).array());
            for (byte[] part : parts) {
                mac.update(part);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new RdmaException("HmacSHA256 is not available in this JVM", e);
        }
    }
}
