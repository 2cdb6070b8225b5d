package io.whale.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SameOriginTest {

    @Test
    void shouldServeAnActionFromTheUisOwnPage() {
        assertEquals(Optional.empty(), SameOrigin.refusal("http://10.0.0.5:8080", null, "10.0.0.5:8080"));
        assertEquals(Optional.empty(), SameOrigin.refusal(null, "http://ui.example/topology.html?id=t-1-1", "UI.example"));
        assertEquals(Optional.empty(), SameOrigin.refusal("https://ui.example:443", null, "ui.example"));
    }

    @Test
    void shouldServeAClientThatNamesNoOrigin() {
        assertEquals(Optional.empty(), SameOrigin.refusal(null, null, "10.0.0.5:8080"));
    }

    @Test
    void shouldRefuseAnActionFromAnotherSitesPageNamingIt() {
        Optional<String> refusal = SameOrigin.refusal("http://evil.example", null, "10.0.0.5:8080");
        assertTrue(refusal.orElseThrow().contains("this one came from http://evil.example, not from 10.0.0.5:8080"), refusal.get());
        assertTrue(SameOrigin.refusal(null, "http://10.0.0.5:9999/", "10.0.0.5:8080").isPresent(), "another port is another origin");
        assertTrue(SameOrigin.refusal("null", null, "10.0.0.5:8080").isPresent(), "a sandboxed page's origin is no origin of ours");
    }
}
