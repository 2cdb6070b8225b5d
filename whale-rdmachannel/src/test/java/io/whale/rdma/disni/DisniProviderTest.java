package io.whale.rdma.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.whale.rdma.RdmaConfig;
import io.whale.rdma.RdmaException;
import io.whale.rdma.spi.RdmaProviders;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DisniProviderTest {

    private static boolean libdisniLoadable() {
        try {
            System.loadLibrary("disni");
            return true;
        } catch (UnsatisfiedLinkError e) {
            return false;
        }
    }

    @Test
    void shouldBeSelectedByName() {
        assertEquals(DisniProvider.NAME, RdmaProviders.byName("disni").name());
        assertEquals("ucx", RdmaProviders.byName("ucx").name());
    }

    @Test
    void shouldFailAtStartWithAMessageNamingTheMissingNativeLibrary() {
        assumeTrue(!libdisniLoadable(), "libdisni is installed on this host");
        RdmaConfig config = RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "s", RdmaConfig.PROVIDER, "disni"));
        RdmaException error = assertThrows(RdmaException.class, () -> RdmaProviders.start(config));
        assertTrue(error.getMessage().contains("libdisni"), error.getMessage());
        assertTrue(error.getMessage().contains("whale.rdma.provider=ucx"), "suggests the alternative");
    }

    @Test
    void shouldNameTheKnownProvidersForAnUnknownName() {
        RdmaException error = assertThrows(RdmaException.class, () -> RdmaProviders.byName("jxio"));
        assertTrue(error.getMessage().contains("ucx") && error.getMessage().contains("disni"), error.getMessage());
    }
}
