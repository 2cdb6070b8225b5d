package io.whale.ui;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The per-session token a page's topology action carries (cross-site request forgery, the signed double-submit of
 * OWASP's cheat sheet): the session is a random id in an HttpOnly, SameSite=Strict cookie, the token an HMAC-SHA256 of
 * it under a key made when the UI started. Another site's page can neither read the cookie nor compute the token, and a
 * token taken from one session does not act in another.
 */
final class ActionToken {
    static final String COOKIE = "whale-ui-session";
    static final String FIELD = "token";
    private static final String HMAC = "HmacSHA256";
    private static final Base64.Encoder TEXT = Base64.getUrlEncoder().withoutPadding();

    private final SecureRandom random = new SecureRandom();
    private final SecretKeySpec key;

    ActionToken() {
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        key = new SecretKeySpec(secret, HMAC);
    }

    /** The token for the request's session; a session (the cookie) is opened on {@code response} when it has none. */
    String forPage(HttpServletRequest request, HttpServletResponse response) {
        Optional<String> session = session(request);
        if (session.isPresent()) {
            return sign(session.get());
        }
        byte[] id = new byte[16];
        random.nextBytes(id);
        Cookie cookie = new Cookie(COOKIE, TEXT.encodeToString(id));
        cookie.setHttpOnly(true);
        cookie.setSecure(request.isSecure());
        cookie.setPath("/");
        cookie.setAttribute("SameSite", "Strict");
        response.addCookie(cookie);
        return sign(cookie.getValue());
    }

    /** Why {@code token} does not act for the request's session; empty when it does. */
    Optional<String> refusal(HttpServletRequest request, String token) {
        Optional<String> session = session(request);
        if (session.isEmpty()) {
            return Optional.of("an action from a page needs the session the UI's page opened (cookie " + COOKIE + "); reload the page");
        }
        if (token == null || !MessageDigest.isEqual(sign(session.get()).getBytes(StandardCharsets.US_ASCII), token.getBytes(StandardCharsets.US_ASCII))) {
            return Optional.of("an action from a page needs the page's token (field " + FIELD + "), and this one "
                + (token == null ? "has none" : "is not this session's") + "; reload the page");
        }
        return Optional.empty();
    }

    private String sign(String session) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(key);
            return TEXT.encodeToString(mac.doFinal(session.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JVM has no " + HMAC, e);
        }
    }

    private static Optional<String> session(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        return cookies == null ? Optional.empty()
            : Arrays.stream(cookies).filter(c -> COOKIE.equals(c.getName()) && !c.getValue().isEmpty()).map(Cookie::getValue).findFirst();
    }
}
