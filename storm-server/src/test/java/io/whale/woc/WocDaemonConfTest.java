package io.whale.woc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.whale.config.WhaleConfig;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Guards the upstream-tests-with-woc run: if its daemon conf were not picked up, upstream's tests would silently
 * run with worker-oriented communication off.
 */
@EnabledIfSystemProperty(named = "storm.conf.file", matches = "woc-on-storm\\.yaml")
class WocDaemonConfTest {
    @Test
    void theDaemonConfOfThisRunSwitchesWorkerOrientedCommunicationOn() {
        assertEquals(Boolean.TRUE, Utils.readStormConfig().get(WhaleConfig.WOC_ENABLED));
    }
}
