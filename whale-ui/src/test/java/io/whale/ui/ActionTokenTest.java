package io.whale.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

class ActionTokenTest {
    private final ActionToken tokens = new ActionToken();

    @Test
    void shouldOpenAStrictHttpOnlySessionCookieForAPageRequestedWithoutOne() {
        HttpServletResponse response = mock(HttpServletResponse.class);

        String token = tokens.forPage(request(null), response);

        ArgumentCaptor<Cookie> opened = ArgumentCaptor.forClass(Cookie.class);
        verify(response).addCookie(opened.capture());
        Cookie cookie = opened.getValue();
        assertEquals(ActionToken.COOKIE, cookie.getName());
        assertTrue(cookie.isHttpOnly() && "Strict".equals(cookie.getAttribute("SameSite")) && "/".equals(cookie.getPath()), cookie.toString());
        assertEquals(Optional.empty(), tokens.refusal(request(cookie.getValue()), token), "the page's token acts in the session it opened");
    }

    @Test
    void shouldKeepTheSessionARequestAlreadyHas() {
        HttpServletResponse response = mock(HttpServletResponse.class);

        String token = tokens.forPage(request("session-a"), response);

        verify(response, never()).addCookie(org.mockito.ArgumentMatchers.any());
        assertEquals(token, tokens.forPage(request("session-a"), mock(HttpServletResponse.class)), "one token per session");
        assertEquals(Optional.empty(), tokens.refusal(request("session-a"), token));
    }

    @Test
    void shouldRefuseATokenOfAnotherSessionOrAnotherUiOrNoneAtAll() {
        String a = tokens.forPage(request("session-a"), mock(HttpServletResponse.class));
        String fromAnotherUi = new ActionToken().forPage(request("session-b"), mock(HttpServletResponse.class));

        assertTrue(tokens.refusal(request("session-b"), a).orElseThrow().contains("is not this session's"));
        assertTrue(tokens.refusal(request("session-b"), fromAnotherUi).orElseThrow().contains("is not this session's"));
        assertTrue(tokens.refusal(request("session-b"), null).orElseThrow().contains("has none"));
        assertTrue(tokens.refusal(request(null), a).orElseThrow().contains("cookie " + ActionToken.COOKIE));
        assertNotEquals(a, tokens.forPage(request("session-b"), mock(HttpServletResponse.class)));
    }

    private static HttpServletRequest request(String session) {
        HttpServletRequest request = mock(HttpServletRequest.class);
        when(request.getCookies()).thenReturn(session == null ? null : new Cookie[] {new Cookie("other", "x"), new Cookie(ActionToken.COOKIE, session)});
        return request;
    }
}
