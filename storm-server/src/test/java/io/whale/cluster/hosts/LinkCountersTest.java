package io.whale.cluster.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LinkCountersTest {

    @Test
    void shouldReadTheByteCountersOfIpsJsonOutput() {
        String ip = "[{\"ifindex\":2,\"ifname\":\"wlink\",\"stats64\":{\"rx\":{\"bytes\":123456789012,\"packets\":9},"
            + "\"tx\":{\"bytes\":42,\"packets\":1}}}]";

        assertEquals(new LinkCounters(123_456_789_012L, 42), LinkCounters.parse(ip));
    }

    @Test
    void shouldFailWhenIpPrintedNoCounters() {
        assertThrows(IllegalArgumentException.class, () -> LinkCounters.parse("[{\"ifname\":\"wlink\"}]"));
    }
}
