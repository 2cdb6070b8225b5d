package io.whale.executor;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.config.WhaleConfigValidation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.storm.policy.IWaitStrategy.WaitSituation;
import org.apache.storm.policy.WaitStrategyPark;
import org.apache.storm.utils.JCQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class PublishWaitTest {
    /** Parks longer than any test runs, so that only a publish can wake the bolt. */
    private static final long HOUR = TimeUnit.HOURS.toNanos(1);

    /** A bolt executor's loop over {@code queue}, as BoltExecutor runs it (take what the queue holds, else wait), started. */
    private record Bolt(Thread thread, List<Object> taken, CountDownLatch expected) {
        static Bolt parkedOn(JCQueue queue, int tuples) {
            PublishWait wait = new PublishWait(HOUR);
            wait.prepare(Map.of(), WaitSituation.BOLT_WAIT);
            PublishWait.watch(wait, queue);
            List<Object> taken = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch expected = new CountDownLatch(tuples);
            JCQueue.Consumer consumer = new JCQueue.Consumer() {
                @Override
                public void accept(Object tuple) {
                    taken.add(tuple);
                    expected.countDown();
                }

                @Override
                public void flush() {
                }
            };
            Thread thread = new Thread(() -> {
                int idle = 0;
                while (!Thread.currentThread().isInterrupted()) {
                    if (queue.consume(consumer) == 0) {
                        idle = wait.idle(idle);
                    }
                }
            });
            thread.start();
            Bolt bolt = new Bolt(thread, taken, expected);
            bolt.parked();
            return bolt;
        }

        /** Waits until the loop is parked on its queue's signal (not between two turns of its loop). */
        void parked() {
            await().atMost(Duration.ofSeconds(10)).until(() -> thread.getState() == Thread.State.TIMED_WAITING
                && LockSupport.getBlocker(thread) instanceof PublishSignal);
        }

        void stop() throws InterruptedException {
            thread.interrupt();
            thread.join();
        }
    }

    private static JCQueue queue(int producerBatch) {
        return new JCQueue("bolt-receive", "bolt-receive", 64, 0, producerBatch, new WaitStrategyPark(100), "topology",
            "bolt", List.of(), 6700, null);
    }

    @Test
    @Timeout(60)
    void shouldWakeAnIdleBoltForATuplePublishedToItsQueueAnyWay() throws Exception {
        JCQueue direct = queue(1);
        Bolt bolt = Bolt.parkedOn(direct, 3);
        try {
            assertTrue(direct.tryPublish("one"));
            await().atMost(Duration.ofSeconds(10)).until(() -> bolt.taken().size() == 1);
            bolt.parked();
            assertTrue(direct.tryPublishToOverflow("two"));
            await().atMost(Duration.ofSeconds(10)).until(() -> bolt.taken().size() == 2);
            bolt.parked();
            assertTrue(direct.tryPublishDirect("three"));
            assertTrue(bolt.expected().await(10, TimeUnit.SECONDS), "the bolt did not wake for each tuple: " + bolt.taken());
            assertEquals(List.of("one", "two", "three"), bolt.taken());
        } finally {
            bolt.stop();
            direct.close();
        }
    }

    @Test
    @Timeout(60)
    void shouldWakeAnIdleBoltWhenAProducersBatchIsFlushedToItsQueue() throws Exception {
        JCQueue batched = queue(4);
        Bolt bolt = Bolt.parkedOn(batched, 2);
        try {
            batched.publish("a");
            batched.publish("b");
            batched.flush();
            assertTrue(bolt.expected().await(10, TimeUnit.SECONDS), "a flushed batch did not wake the bolt: " + bolt.taken());
            assertEquals(List.of("a", "b"), bolt.taken());
        } finally {
            bolt.stop();
            batched.close();
        }
    }

    @Test
    void shouldRefuseToBeASpoutsOrABackpressureWaitNamingTheKey() {
        PublishWait wait = new PublishWait();
        IllegalArgumentException spout = assertThrows(IllegalArgumentException.class,
            () -> wait.prepare(Map.of(), WaitSituation.SPOUT_WAIT));
        assertTrue(spout.getMessage().startsWith("topology.spout.wait.strategy: "), spout.getMessage());
        IllegalArgumentException backpressure = assertThrows(IllegalArgumentException.class,
            () -> wait.prepare(Map.of(), WaitSituation.BACK_PRESSURE_WAIT));
        assertTrue(backpressure.getMessage().startsWith("topology.backpressure.wait.strategy: "), backpressure.getMessage());
    }

    @Test
    void shouldBeTheClassTheSubmitChecksByName() {
        assertEquals(PublishWait.class.getName(), WhaleConfigValidation.PUBLISH_WAIT);
    }

    @Test
    void shouldRefuseToIdleWithoutAQueueToWatch() {
        PublishWait wait = new PublishWait();
        wait.prepare(Map.of(), WaitSituation.BOLT_WAIT);
        assertThrows(IllegalStateException.class, () -> wait.idle(0));
    }
}
