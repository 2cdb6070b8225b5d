package io.whale.cluster.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class Ipv4CidrTest {

    @Test
    void shouldClearHostBitsAndPrintTheNetwork() {
        assertEquals("10.213.4.0/24", Ipv4Cidr.parse("10.213.4.77/24").toString());
        assertEquals("192.0.2.2/32", Ipv4Cidr.parse("192.0.2.2").toString());
    }

    @Test
    void shouldOverlapWhenEitherContainsTheOther() {
        assertTrue(Ipv4Cidr.parse("10.0.0.0/8").overlaps(Ipv4Cidr.parse("10.213.4.0/24")));
        assertTrue(Ipv4Cidr.parse("10.213.4.0/24").overlaps(Ipv4Cidr.parse("10.213.4.9/32")));
        assertFalse(Ipv4Cidr.parse("10.213.4.0/24").overlaps(Ipv4Cidr.parse("10.213.5.0/24")));
    }

    @Test
    void shouldCountOnlyRfc1918NetworksAsPrivate() {
        assertTrue(Ipv4Cidr.parse("10.213.4.0/24").isPrivate());
        assertTrue(Ipv4Cidr.parse("172.31.9.0/24").isPrivate());
        assertTrue(Ipv4Cidr.parse("192.168.77.0/24").isPrivate());
        assertFalse(Ipv4Cidr.parse("172.32.0.0/24").isPrivate());
        assertFalse(Ipv4Cidr.parse("192.0.2.0/24").isPrivate());
        assertFalse(Ipv4Cidr.parse("8.0.0.0/6").isPrivate(), "a network wider than 10/8 reaches beyond it");
    }

    @Test
    void shouldGiveTheAddressAtAnOffsetWithinTheNetworkOnly() {
        assertEquals("10.213.4.12", Ipv4Cidr.parse("10.213.4.0/24").address(12));
        assertThrows(IllegalArgumentException.class, () -> Ipv4Cidr.parse("10.213.4.0/24").address(256));
    }

    @Test
    void shouldNameTheTextThatIsNotANetwork() {
        for (String bad : new String[] {"10.213.4/24", "10.213.4.300/24", "10.213.4.0/33", "ten/8", "1.2.3.4/8/8"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ipv4Cidr.parse(bad));
            assertTrue(e.getMessage().contains(bad) || e.getMessage().contains("33"), e.getMessage());
        }
    }
}
