package io.whale.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The pid identity check with plain data: /proc stat lines, pid files, and recorded vs. current identity. */
class PidCheckTest {
    private static final String MARK = "/home/me/local-cluster";
    private static final String DAEMON_COMMAND = "java -Dstorm.log.dir=/home/me/local-cluster/logs/nimbus org.apache.storm.daemon.nimbus.Nimbus";

    @Test
    void shouldReadTheStartTimeAfterACommandNameWithSpacesAndParentheses() {
        String stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 9062 0 0 0 53 11 0 0 20 0 31 0 8812345 "
            + "3870588928 60012 18446744073709551615 1 1 0 0 0 0 0 4096 16796879 0 0 0 17 1 0 0 0 0 0";
        assertEquals(8812345, ProcStat.startTicks(stat));
    }

    @Test
    void shouldRefuseAStatLineWithoutAStartTime() {
        assertThrows(IllegalArgumentException.class, () -> ProcStat.startTicks("4242 (java) S 1 4242"));
        assertThrows(IllegalArgumentException.class, () -> ProcStat.startTicks("no command name here"));
    }

    @Test
    void shouldReadItsOwnStartTimeFromProc() {
        long pid = ProcessHandle.current().pid();
        OptionalLong ticks = ProcStat.startTicksOf(pid);
        assertTrue(ticks.isPresent(), "this test runs on Linux");
        assertEquals(ticks, ProcStat.startTicksOf(pid), "a process's start time does not change");
    }

    @Test
    void shouldKeepThePidOnTheFirstLineAndTheStartTimeAfterIt() {
        PidRecord record = new PidRecord(4242, OptionalLong.of(8812345));
        assertEquals("4242\nstarttime=8812345\n", record.text());
        assertEquals(record, PidRecord.parse(record.text()));
    }

    @Test
    void shouldReadAPidFileWithOnlyAPid() {
        assertEquals(new PidRecord(4242, OptionalLong.empty()), PidRecord.parse("4242\n"));
    }

    @Test
    void shouldTrustAPidWhoseStartTimeIsTheRecordedOne() {
        assertEquals(PidCheck.OURS, check(OptionalLong.of(100), running(OptionalLong.of(100), "sleep 600")));
    }

    @Test
    void shouldLeaveAloneAPidThatStartedAtAnotherTime() {
        // The daemon died and the pid went to another process, even one that looks like a daemon of this cluster.
        assertEquals(PidCheck.OTHER, check(OptionalLong.of(100), running(OptionalLong.of(250), DAEMON_COMMAND)));
    }

    @Test
    void shouldSayGoneWhenNothingRunsUnderThePid() {
        assertEquals(PidCheck.GONE, check(OptionalLong.of(100), new PidCheck.Running(false, OptionalLong.empty(), Optional.empty())));
    }

    @Test
    void shouldFallBackOnTheCommandLineWithoutARecordedStartTime() {
        assertEquals(PidCheck.OURS, check(OptionalLong.empty(), running(OptionalLong.of(250), DAEMON_COMMAND)));
        assertEquals(PidCheck.OTHER, check(OptionalLong.empty(), running(OptionalLong.of(250), "/usr/sbin/sshd -D")));
    }

    @Test
    void shouldLeaveAloneAProcessThatCannotBeIdentified() {
        assertEquals(PidCheck.OTHER, check(OptionalLong.empty(), new PidCheck.Running(true, OptionalLong.empty(), Optional.empty())));
    }

    private static PidCheck check(OptionalLong recordedStart, PidCheck.Running now) {
        return PidCheck.of(new PidRecord(4242, recordedStart), now, MARK);
    }

    private static PidCheck.Running running(OptionalLong startTicks, String commandLine) {
        return new PidCheck.Running(true, startTicks, Optional.of(commandLine));
    }
}
