package io.whale.examples.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SmokeSettingsTest {

    @Test
    void roundTripsThroughItsArguments() {
        SmokeSettings s = SmokeSettings.parse(new String[] {"--tuples", "7", "--parallelism", "3", "--workers", "2",
            "--report-dir", "/tmp/r", "--name", "x", "--rate", "50"});
        assertEquals(s, SmokeSettings.parse(s.toArgs().toArray(String[]::new)));
        assertEquals(50, s.rate());
    }

    @Test
    void rejectsMissingReportDirAndUnknownOptions() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> SmokeSettings.parse(new String[0]));
        assertTrue(missing.getMessage().contains("--report-dir"));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> SmokeSettings.parse(new String[] {"--color", "blue"}));
        assertTrue(unknown.getMessage().contains("unknown option --color"));
        assertThrows(IllegalArgumentException.class, () -> SmokeSettings.parse(new String[] {"--tuples", "0", "--report-dir", "/r"}));
        assertThrows(IllegalArgumentException.class, () -> SmokeSettings.parse(new String[] {"--rate", "-1", "--report-dir", "/r"}));
    }
}
