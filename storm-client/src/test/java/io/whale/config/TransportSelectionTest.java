package io.whale.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.messaging.TransportFactory;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

class TransportSelectionTest {
    private static Map<String, Object> conf(Map<String, Object> overrides) {
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.putAll(overrides);
        return conf;
    }

    @Test
    void unsetLeavesStormsOwnTransportKeyInCharge() {
        Map<String, Object> conf = conf(Map.of(Config.STORM_MESSAGING_TRANSPORT, "com.example.MyContext"));
        assertEquals("com.example.MyContext", TransportSelection.pluginClassName(conf));
    }

    @Test
    void selectsNettyOrRdmaByName() {
        assertEquals("io.whale.rdma.storm.RdmaContext",
            TransportSelection.pluginClassName(conf(Map.of("whale.transport", "rdma"))));
        assertEquals(TransportSelection.NETTY_CONTEXT,
            TransportSelection.pluginClassName(conf(Map.of("whale.transport", " Netty "))));
    }

    @Test
    void rejectsAnUnknownTransportByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> TransportSelection.pluginClassName(conf(Map.of("whale.transport", "udp"))));
        assertEquals("whale.transport: \"udp\" (a string) is not accepted; expected one of netty, rdma", e.getMessage());
    }

    @Test
    void transportFactoryFollowsTheSwitch() {
        // whale-rdmachannel is not on this module's class path: the factory's failure names the RDMA context,
        // which proves the patched factory asked TransportSelection.
        RuntimeException e = assertThrows(RuntimeException.class,
            () -> TransportFactory.makeContext(conf(Map.of("whale.transport", "rdma")), null));
        assertTrue(e.getMessage().contains("io.whale.rdma.storm.RdmaContext"), e.getMessage());
    }
}
