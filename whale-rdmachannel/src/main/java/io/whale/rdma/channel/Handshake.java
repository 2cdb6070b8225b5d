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
 * Mutual proof of the shared topology secret: each side sends an HMAC-SHA256 over a fresh nonce chosen by the
 * sender, so the secret itself never travels and the sender's ring key is revealed only to a proven receiver.
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

    byte[] helloMac(long channelId, byte[] nonce) {
        return mac("whale-rdma-hello", channelId, nonce);
    }

    byte[] welcomeMac(long channelId, byte[] nonce) {
        return mac("whale-rdma-welcome", channelId, nonce);
    }

    static boolean matches(byte[] expected, byte[] actual) {
        return MessageDigest.isEqual(expected, actual);
    }

    private byte[] mac(String purpose, long channelId, byte[] nonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(purpose.getBytes(StandardCharsets.US_ASCII));
            mac.update(ByteBuffer.allocate(Long.BYTES).putLong(channelId).array());
            mac.update(nonce);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new RdmaException("HmacSHA256 is not available in this JVM", e);
        }
    }
}
