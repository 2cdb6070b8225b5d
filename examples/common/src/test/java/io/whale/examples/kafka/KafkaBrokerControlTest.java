package io.whale.examples.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class KafkaBrokerControlTest {
    @TempDir
    Path dir;

    @AfterEach
    void stopWhateverWasStarted() {
        KafkaBrokerControl.runningBroker(new BrokerFolder(dir))
                .ifPresent(process -> KafkaBrokerControl.stop(process, Duration.ofSeconds(30)));
    }

    @Test
    void shouldStartABrokerProcessReportItRunningAndStopIt() {
        assertEquals(KafkaBrokerControl.NOT_RUNNING, run("status"));

        assertEquals(0, run("start", "--port", "0", "--heap", "256m"));
        BrokerFolder folder = new BrokerFolder(dir);
        long pid = folder.pid().orElseThrow();
        String bootstrap = folder.bootstrapServers().orElseThrow();
        assertTrue(bootstrap.startsWith("127.0.0.1:"));
        assertTrue(TopicAdmin.answers(bootstrap, Duration.ofSeconds(10)));
        assertEquals(0, run("status"));
        assertEquals(0, run("start"), "a second start finds the running broker");
        assertEquals(pid, folder.pid().orElseThrow());

        assertEquals(0, run("stop"));
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        assertTrue(folder.pid().isEmpty());
        assertEquals(KafkaBrokerControl.NOT_RUNNING, run("status"));
    }

    private int run(String command, String... options) {
        String[] args = new String[options.length + 3];
        args[0] = command;
        args[1] = "--dir";
        args[2] = dir.toString();
        System.arraycopy(options, 0, args, 3, options.length);
        return new CommandLine(new KafkaBrokerControl()).execute(args);
    }
}
