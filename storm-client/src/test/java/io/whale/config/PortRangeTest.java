package io.whale.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class PortRangeTest {

    @Test
    void aSinglePortIsARangeOfOne() {
        PortRange range = PortRange.parse("9250");
        assertEquals(new PortRange(9250, 9250), range);
        assertEquals(List.of(9250), ports(range));
        assertEquals("9250", range.toString());
    }

    @Test
    void aRangeIteratesItsPortsInOrder() {
        PortRange range = PortRange.parse(" 9250 - 9253 ");
        assertEquals(List.of(9250, 9251, 9252, 9253), ports(range));
        assertEquals("9250-9253", range.toString());
    }

    @Test
    void theWholePortSpaceIsAccepted() {
        assertEquals(new PortRange(1, 65535), PortRange.parse("1-65535"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "9250-", "-9250", "9250-abc", "9250-9260-9270", "9260-9250", "0", "65536",
        "0-10", "9250-70000", "99999999999"})
    void aBadValueIsRefusedNamingTheKeyAndTheValue(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PortRange.parse(value));
        assertTrue(e.getMessage().contains("'port'"), e.getMessage());
        assertTrue(e.getMessage().contains("'" + value + "'"), e.getMessage());
    }

    @Test
    void noValueIsRefusedNamingTheKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PortRange.parse(null));
        assertTrue(e.getMessage().contains("'port'"), e.getMessage());
    }

    @Test
    void aReversedRangeCannotBeBuilt() {
        assertThrows(IllegalArgumentException.class, () -> new PortRange(9260, 9250));
    }

    private static List<Integer> ports(PortRange range) {
        List<Integer> ports = new ArrayList<>();
        range.forEach(ports::add);
        return ports;
    }
}
