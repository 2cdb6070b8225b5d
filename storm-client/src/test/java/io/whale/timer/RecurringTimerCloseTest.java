package io.whale.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.storm.StormTimer;
import org.junit.jupiter.api.Test;

/** Patch 0018: closing a timer while a recurring task runs, or before one is scheduled, is a shutdown, not a failure. */
class RecurringTimerCloseTest {
    @Test
    void shouldNotCallTheKillFunctionWhenTheTimerClosesWhileARecurringMillisecondTaskRuns() throws Exception {
        List<Throwable> kills = new CopyOnWriteArrayList<>();
        StormTimer timer = new StormTimer("close-race", (thread, error) -> kills.add(error));
        CountDownLatch running = new CountDownLatch(1);
        try {
            timer.scheduleRecurringMs(0, 10, () -> {
                running.countDown();
                awaitCloseInterrupt();
            });
            assertTrue(running.await(10, TimeUnit.SECONDS), "the recurring task ran");
        } finally {
            // close() marks the timer inactive, then interrupts the running task: the task returns inside close()
            // and re-schedules itself on a closed timer. close() joins the timer thread, so when it returns the
            // thread has decided whether that was a failure.
            timer.close();
        }
        assertEquals(List.of(), kills, "the timer's kill function (a worker's halt) was called");
    }

    @Test
    void shouldNotThrowWhenARecurringTaskIsScheduledOnAClosedTimer() throws Exception {
        List<Throwable> kills = new CopyOnWriteArrayList<>();
        StormTimer timer = new StormTimer("closed", (thread, error) -> kills.add(error));
        CountDownLatch running = new CountDownLatch(1);
        timer.schedule(0, running::countDown);
        // closed once it runs, as a worker's timer is: a close interrupting the timer thread's first steps would
        // interrupt its class loading too (Log4j's, which then fails for the whole JVM)
        assertTrue(running.await(10, TimeUnit.SECONDS), "the timer ran a task");
        timer.close();
        List<String> ran = new CopyOnWriteArrayList<>();

        // an executor still starting when its worker shuts down schedules its metrics ticks this way
        timer.scheduleRecurring(0, 1, () -> ran.add("seconds"));
        timer.scheduleRecurringMs(0, 10, () -> ran.add("milliseconds"));
        timer.scheduleRecurringWithJitter(0, 1, 5, () -> ran.add("jitter"));

        assertEquals(List.of(), ran, "a closed timer runs nothing");
        assertEquals(List.of(), kills);
    }

    private static void awaitCloseInterrupt() {
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException closing) {
            Thread.currentThread().interrupt();
        }
    }
}
