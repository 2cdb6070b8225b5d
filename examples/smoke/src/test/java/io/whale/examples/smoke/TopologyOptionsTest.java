package io.whale.examples.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TopologyOptionsTest {

    @Test
    void givesDefaultsOverriddenByTheArgumentsAndRoundTrips() {
        TopologyOptions o = TopologyOptions.parse(new String[] {"--ids", "7", "--report-dir", "/tmp/r"}, AckingTopology.defaults());
        assertEquals(7, o.number("--ids"));
        assertEquals(150, o.number("--rate"));
        assertEquals("/tmp/r", o.text("--report-dir"));
        assertEquals(o.toArgs(), TopologyOptions.parse(o.toArgs().toArray(String[]::new), AckingTopology.defaults()).toArgs());
    }

    @Test
    void refusesUnknownOptionsMissingValuesAndAMissingReportDir() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> TopologyOptions.parse(new String[] {"--color", "blue"}, BackpressureTopology.defaults()));
        assertTrue(unknown.getMessage().contains("unknown option --color"));
        assertThrows(IllegalArgumentException.class, () -> TopologyOptions.parse(new String[] {"--report-dir"}, BackpressureTopology.defaults()));
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
            () -> TopologyOptions.parse(new String[0], BackpressureTopology.defaults()));
        assertTrue(missing.getMessage().contains("--report-dir"));
        TopologyOptions negative = TopologyOptions.parse(new String[] {"--slow-task-ms", "-1", "--report-dir", "/r"},
            BackpressureTopology.defaults());
        assertThrows(IllegalArgumentException.class, () -> negative.number("--slow-task-ms"));
    }
}
