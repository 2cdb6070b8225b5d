package io.whale.rdma.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class PortHoldersTest {
    private static final List<String> TABLE = List.of(
            "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
            "   0: 00000000:0400 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1",
            "   1: 0100007F:9C40 0100007F:0400 01 00000000:00000000 00:00000000 00000000     0        0 2 1",
            "   2: 0100007F:0401 0100007F:0401 06 00000000:00000000 00:00000000 00000000     0        0 0 1",
            "   3: 00000000000000000000000000000000:0402 00000000000000000000000000000000:0000 0A 0 0 0 0 0 3 1",
            "   4: 0000000000000000FFFF00000100007F:0403 0000000000000000FFFF00000100007F:9C41 01 0 0 0 0 0 4 1");

    @Test
    void shouldNameListenersAndConnectionsByTheirLocalPort() {
        assertEquals(List.of("LISTEN 0.0.0.0:1024"), PortHolders.holders(TABLE, 1024));
        assertEquals(List.of("ESTABLISHED 127.0.0.1:40000 -> 127.0.0.1:1024"), PortHolders.holders(TABLE, 40000));
        assertEquals(List.of("TIME_WAIT 127.0.0.1:1025 -> 127.0.0.1:1025"), PortHolders.holders(TABLE, 1025));
    }

    @Test
    void shouldDecodeIpv6AndMappedIpv4Addresses() {
        assertEquals(List.of("LISTEN 0:0:0:0:0:0:0:0:1026"), PortHolders.holders(TABLE, 1026));
        assertEquals(List.of("ESTABLISHED 127.0.0.1:1027 -> 127.0.0.1:40001"), PortHolders.holders(TABLE, 1027));
    }

    @Test
    void shouldFindNothingForAFreePort() {
        assertEquals(List.of(), PortHolders.holders(TABLE, 1028));
    }
}
