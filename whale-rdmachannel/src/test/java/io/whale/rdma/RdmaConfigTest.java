package io.whale.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RdmaConfigTest {

    @Test
    void shouldUseThePaperDefaults() {
        RdmaConfig config = RdmaConfig.defaults("secret");
        assertEquals("ucx", config.provider());
        assertEquals(256 * 1024, config.maxMemorySizeBytes());
        assertEquals(1_000_000, config.waitTimeLimitNanos());
        assertEquals(8 * 1024 * 1024, config.ringBytes());
    }

    @Test
    void shouldReadStormStyleValuesOfAnyType() {
        RdmaConfig config = RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "s", RdmaConfig.PROVIDER, "disni",
                RdmaConfig.MMS_BYTES, "65536", RdmaConfig.WTL_MS, 2.5, RdmaConfig.RING_BYTES, 1 << 20));
        assertEquals("disni", config.provider());
        assertEquals(65536, config.maxMemorySizeBytes());
        assertEquals(2_500_000, config.waitTimeLimitNanos());
        assertEquals(1 << 20, config.ringBytes());
    }

    @Test
    void shouldCollectUcxSettingsByTheirUcxNames() {
        RdmaConfig config = RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "s", "whale.rdma.ucx.TLS", "posix,self",
                "whale.rdma.ucx.NET_DEVICES", "mlx5_0:1", "whale.rdma.mms.bytes", 4096));
        assertEquals(Map.of("TLS", "posix,self", "NET_DEVICES", "mlx5_0:1"), config.ucxSettings());
    }

    @Test
    void shouldNameTheKeyOfAValueThatIsNotANumber() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RdmaConfig.fromMap(
                Map.of(RdmaConfig.SECRET, "s", RdmaConfig.MMS_BYTES, "lots")));
        assertEquals("whale.rdma.mms.bytes must be a number, not 'lots'", e.getMessage());
    }

    @Test
    void shouldRefuseInconsistentSettings() {
        assertThrows(IllegalArgumentException.class, () -> RdmaConfig.fromMap(Map.of()));
        assertThrows(IllegalArgumentException.class, () -> RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "s",
                RdmaConfig.MMS_BYTES, 1 << 20, RdmaConfig.RING_BYTES, 1 << 19)));
    }
}
