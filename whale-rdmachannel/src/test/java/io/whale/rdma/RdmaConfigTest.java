package io.whale.rdma;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.config.WhaleConfigValidation;
import io.whale.rdma.storm.RdmaContext;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RdmaConfigTest {

    @Test
    void shouldHaveEveryKeyTheChannelReadsCheckedAtSubmit() throws IllegalAccessException {
        List<Field> keys = new ArrayList<>(List.of(RdmaConfig.class.getFields()));
        keys.addAll(List.of(RdmaContext.class.getFields()));
        for (Field field : keys) {
            if (Modifier.isStatic(field.getModifiers()) && field.get(null) instanceof String key && key.startsWith("whale.rdma.")
                && !key.endsWith(".")) {
                assertDoesNotThrow(() -> WhaleConfigValidation.check(key, null), key + " has no submit-time rule");
            }
        }
    }

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
        assertEquals("ucx", RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "s", RdmaConfig.PROVIDER, " UCX")).provider(),
            "the provider as submit accepts it, whatever its case");
        assertEquals(2_500_000, config.waitTimeLimitNanos());
        assertEquals(1 << 20, config.ringBytes());
    }

    @Test
    void shouldWaitForEventsUnlessTheConfSaysPoll() {
        assertTrue(RdmaConfig.defaults("s").progressWait());
        assertFalse(RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "s", RdmaConfig.PROGRESS_WAIT, false)).progressWait());
        assertFalse(RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "s", RdmaConfig.PROGRESS_WAIT, "false")).progressWait(),
            "as -c whale.rdma.progress.wait=false gives it");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "s", RdmaConfig.PROGRESS_WAIT, "sometimes")));
        assertEquals("whale.rdma.progress.wait must be true or false, not 'sometimes'", e.getMessage());
    }

    @Test
    void shouldReadTheIdleSpinAndYieldBudgetAndRefuseANegativeOne() {
        RdmaConfig config = RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "s", RdmaConfig.PROGRESS_SPINS, "0",
            RdmaConfig.PROGRESS_YIELDS, 3L));
        assertEquals(0, config.progressSpins());
        assertEquals(3, config.progressYields());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "s", RdmaConfig.PROGRESS_YIELDS, -1)));
        assertEquals("whale.rdma.progress.yields must not be negative: -1", e.getMessage());
    }

    @Test
    void shouldInlineSmallWorkRequestsByDefaultAndRefuseAnInlineLimitAControlMessageCannotCarry() {
        assertEquals(4000, RdmaConfig.defaults("s").inlineBytes());
        assertEquals(0, RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "s", RdmaConfig.INLINE_BYTES, "0")).inlineBytes());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "s", RdmaConfig.INLINE_BYTES, 4001)));
        assertEquals("whale.rdma.inline.bytes must be 0 to 4000: 4001", e.getMessage());
    }

    @Test
    void shouldHoldConsumptionReportsTenMillisecondsByDefaultAndRefuseADelayOutOfRange() {
        assertEquals(10_000_000L, RdmaConfig.defaults("s").consumedDelayNanos());
        assertEquals(0, RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "s", RdmaConfig.CONSUMED_DELAY_MS, "0")).consumedDelayNanos());
        for (int refused : new int[] {-1, 1001}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RdmaConfig.fromMap(Map.of(RdmaConfig.SECRET, "s", RdmaConfig.CONSUMED_DELAY_MS, refused)));
            assertEquals("whale.rdma.consumed.delay.ms must be 0 to 1000: " + refused, e.getMessage());
        }
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

    @Test
    void shouldNameTheKeyOfAReceiveThreadCountOrBindTimeoutOutOfRange() {
        IllegalArgumentException threads = assertThrows(IllegalArgumentException.class, () -> RdmaConfig.fromMap(
                Map.of(RdmaConfig.SECRET, "s", RdmaConfig.RECEIVE_THREADS, 0)));
        assertTrue(threads.getMessage().startsWith("whale.rdma.receive.threads must be positive"), threads::getMessage);
        IllegalArgumentException bind = assertThrows(IllegalArgumentException.class, () -> RdmaConfig.fromMap(
                Map.of(RdmaConfig.SECRET, "s", RdmaConfig.BIND_TIMEOUT_MS, -1)));
        assertTrue(bind.getMessage().startsWith("whale.rdma.bind.timeout.ms must not be negative"), bind::getMessage);
        RdmaConfig defaults = RdmaConfig.defaults("s");
        assertEquals(1, defaults.receiveThreads());
        assertEquals(10_000, defaults.bindTimeoutMillis());
    }
}
