package io.whale.examples.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session against a stand-in {@code whale} script that records its arguments and fails on "fail". */
class DemoSessionTest {
    @TempDir
    Path tmp;
    private Path calls;
    private DemoSession session;

    @BeforeEach
    void fakeWhale() throws IOException {
        calls = tmp.resolve("calls.txt");
        Path whale = tmp.resolve("whale");
        Files.writeString(whale, "#!/bin/sh\necho \"$*\" >> '" + calls + "'\n[ \"$1\" != fail ]\n");
        Files.setPosixFilePermissions(whale, PosixFilePermissions.fromString("rwx------"));
        session = new DemoSession(whale);
    }

    @Test
    void undoStepsRunOnceNewestFirst() throws Exception {
        session.onClose("stop cluster", () -> session.whale(List.of("local-cluster", "down")));
        session.whale(List.of("local-cluster", "up"));
        session.onClose("stop kafka", () -> session.whale(List.of("kafka", "stop")));
        session.close();
        session.close();
        assertEquals(List.of("local-cluster up", "kafka stop", "local-cluster down"), Files.readAllLines(calls));
    }

    @Test
    void aFailingUndoStepDoesNotStopTheOthers() throws Exception {
        session.onClose("first registered", () -> session.whale(List.of("last")));
        session.onClose("fails", () -> session.whale(List.of("fail", "undo")));
        session.close();
        assertEquals(List.of("fail undo", "last"), Files.readAllLines(calls));
    }

    @Test
    void aFailingCommandNamesItselfAndNoCommandStartsAfterClosing() throws Exception {
        IllegalStateException failed = assertThrows(IllegalStateException.class, () -> session.whale(List.of("fail", "now")));
        assertTrue(failed.getMessage().contains("'whale fail now' failed with exit code 1"), failed.getMessage());
        assertEquals(1, session.whaleQuietly(List.of("fail", "quietly")));
        assertFalse(session.isClosing());
        session.close();
        assertTrue(session.isClosing());
        assertThrows(IllegalStateException.class, () -> session.whale(List.of("kafka", "start")));
        assertEquals(List.of("fail now", "fail quietly"), Files.readAllLines(calls));
    }
}
