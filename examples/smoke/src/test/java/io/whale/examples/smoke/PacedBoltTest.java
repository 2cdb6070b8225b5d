package io.whale.examples.smoke;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which task of the paced bolt turns slow: the first remote one, or the first of the worker a test names. */
class PacedBoltTest {
    private static final String SOURCE = "flood";

    @TempDir
    Path reports;

    /** Task {@code task} of the bolt (tasks 2 to 5) in the worker on {@code port} running {@code workerTasks}; the source is task 1. */
    private static TopologyContext context(int task, int port, List<Integer> workerTasks) {
        TopologyContext context = mock(TopologyContext.class);
        when(context.getThisWorkerTasks()).thenReturn(workerTasks);
        when(context.getComponentTasks(SOURCE)).thenReturn(List.of(1));
        when(context.getThisComponentId()).thenReturn("paced");
        when(context.getComponentTasks("paced")).thenReturn(List.of(2, 3, 4, 5));
        when(context.getThisTaskId()).thenReturn(task);
        when(context.getThisWorkerPort()).thenReturn(port);
        return context;
    }

    private Properties reportOf(int task) {
        Path file = reports.resolve("task-" + task + ".properties");
        return Files.exists(file) ? PropertiesReport.read(file) : new Properties();
    }

    private static boolean slow(Properties report) {
        return Boolean.parseBoolean(report.getProperty("slow"));
    }

    @Test
    void shouldSlowTheFirstTaskOfAWorkerWithoutTheSource() {
        PacedBolt first = new PacedBolt(SOURCE, 2, 0, PacedBolt.FIRST_REMOTE, reports.toString());
        PacedBolt second = new PacedBolt(SOURCE, 2, 0, PacedBolt.FIRST_REMOTE, reports.toString());
        first.prepare(Map.of(), context(2, 6700, List.of(2, 3)), mock(OutputCollector.class));
        second.prepare(Map.of(), context(3, 6700, List.of(2, 3)), mock(OutputCollector.class));
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> reportOf(2).containsKey("slow") && reportOf(3).containsKey("slow"));
            assertEquals(List.of(true, false), List.of(slow(reportOf(2)), slow(reportOf(3))));
        } finally {
            first.cleanup();
            second.cleanup();
        }
    }

    @Test
    void shouldSlowNoTaskUntilTheTestNamesAWorkerThenTheFirstTaskOfThatWorker() throws Exception {
        PacedBolt named = new PacedBolt(SOURCE, 2, 0, PacedBolt.NAMED, reports.toString());
        PacedBolt other = new PacedBolt(SOURCE, 2, 0, PacedBolt.NAMED, reports.toString());
        named.prepare(Map.of(), context(2, 6701, List.of(1, 2, 3)), mock(OutputCollector.class));
        other.prepare(Map.of(), context(4, 6702, List.of(4, 5)), mock(OutputCollector.class));
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> reportOf(2).containsKey("slow") && reportOf(4).containsKey("slow"));
            assertEquals(List.of(false, false), List.of(slow(reportOf(2)), slow(reportOf(4))), "no worker named yet");

            Files.writeString(reports.resolve(PacedBolt.SLOW_WORKER_FILE), "6701\n");
            await().atMost(Duration.ofSeconds(10)).until(() -> slow(reportOf(2)));
            assertEquals(false, slow(reportOf(4)), "the first task of a worker not named");
        } finally {
            named.cleanup();
            other.cleanup();
        }
    }

    @Test
    void shouldRefuseAnUnknownWayToPickTheSlowWorker() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new PacedBolt(SOURCE, 2, 0, "last", reports.toString()));
        assertEquals("slow worker must be first-remote or named, not last", e.getMessage());
    }
}
