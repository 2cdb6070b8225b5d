package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcFilesTest {
    @Test
    void cpuTicksAreUtimePlusStimeEvenWhenTheCommandNameHoldsSpacesAndParentheses() {
        String stat = "4242 (java (worker) x) S 1 4242 4242 0 -1 4194560 51234 0 12 0 1500 250 3 4 20 0 57 0 123456 "
            + "4000000000 60000 18446744073709551615 1 1 0 0 0 0 0 4096 16384 0 0 0 17 1 0 0 0 0 0";
        assertEquals(1750, ProcFiles.cpuTicks(stat));
    }

    @Test
    void cpuTicksOfThisProcessAreReadFromProc() {
        assertTrue(ProcFiles.cpuSecondsOf(ProcessHandle.current().pid()) > 0);
    }

    @Test
    void machineTicksCountIdleAndIoWaitAsNotBusyAndGiveTheCoresBusyBetweenTwoReadings() {
        ProcFiles.MachineTicks before = ProcFiles.machineTicks("cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 50 0 25 400 25 0 0 0 0 0\n");
        ProcFiles.MachineTicks after = ProcFiles.machineTicks("cpu  250 10 90 840 60 0 0 0 0 0\ncpu0 125 5 45 420 30 0 0 0 0 0\n");
        assertEquals(new ProcFiles.MachineTicks(150, 1000), before);
        assertEquals(1.6, after.coresBusySince(before, 2), 1e-9, "200 of 250 ticks busy on 2 cores");
    }

    @Test
    void transmittedBytesOfTheNamedInterface() {
        String netDev = """
            Inter-|   Receive                                                |  Transmit
             face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
                lo: 987654321  12345    0    0    0     0          0         0 987654000  12340    0    0    0     0       0          0
              eth0:    1000      10    0    0    0     0          0         0     2000      20    0    0    0     0       0          0
            """;
        assertEquals(987654000L, ProcFiles.transmittedBytes(netDev, "lo"));
        assertEquals(2000L, ProcFiles.transmittedBytes(netDev, "eth0"));
        assertEquals(2000L, ProcFiles.transmittedBytesBesidesLoopback(netDev), "an emulated host's one link");
        assertThrows(IllegalArgumentException.class, () -> ProcFiles.transmittedBytes(netDev, "eth1"));
    }
}
