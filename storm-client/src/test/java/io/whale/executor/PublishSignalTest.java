package io.whale.executor;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class PublishSignalTest {
    private static final long HOUR = TimeUnit.HOURS.toNanos(1);

    @Test
    @Timeout(30)
    void shouldWakeAParkedConsumerWhenAProducerSignals() throws Exception {
        AtomicBoolean published = new AtomicBoolean();
        PublishSignal signal = new PublishSignal(published::get);
        CountDownLatch woke = new CountDownLatch(1);
        Thread consumer = new Thread(() -> {
            signal.await(HOUR);
            woke.countDown();
        });
        try {
            consumer.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> consumer.getState() == Thread.State.TIMED_WAITING);
            published.set(true);
            signal.signal();
            assertTrue(woke.await(10, TimeUnit.SECONDS), "the consumer parked for an hour stayed parked after a signal");
        } finally {
            consumer.interrupt();
            consumer.join();
        }
    }

    @Test
    @Timeout(30)
    void shouldNotParkWhenATupleWasPublishedBeforeTheConsumerLooked() {
        PublishSignal signal = new PublishSignal(() -> true);
        signal.await(HOUR);
    }

    @Test
    @Timeout(30)
    void shouldReturnWhenTheConsumersThreadIsInterrupted() throws Exception {
        PublishSignal signal = new PublishSignal(() -> false);
        CountDownLatch returned = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        Thread consumer = new Thread(() -> {
            signal.await(HOUR);
            interrupted.set(Thread.currentThread().isInterrupted());
            returned.countDown();
        });
        try {
            consumer.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> consumer.getState() == Thread.State.TIMED_WAITING);
            consumer.interrupt();
            assertTrue(returned.await(10, TimeUnit.SECONDS), "an interrupt did not end the park: the executor could not stop");
            assertTrue(interrupted.get(), "the interrupt must stay set for the executor's loop to see it");
        } finally {
            consumer.interrupt();
            consumer.join();
        }
    }

    @Test
    @Timeout(60)
    void shouldMissNoPublishWhenProducerAndConsumerRace() throws Exception {
        int rounds = 20_000;
        AtomicInteger queued = new AtomicInteger();
        PublishSignal signal = new PublishSignal(() -> queued.get() > 0);
        CountDownLatch done = new CountDownLatch(1);
        Thread consumer = new Thread(() -> {
            int taken = 0;
            while (taken < rounds) {
                if (queued.get() > 0) {
                    queued.decrementAndGet();
                    taken++;
                } else {
                    signal.await(HOUR);
                }
            }
            done.countDown();
        });
        try {
            consumer.start();
            for (int i = 0; i < rounds; i++) {
                queued.incrementAndGet();
                signal.signal();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (queued.get() > 0) {
                    if (System.nanoTime() > deadline) {
                        fail("publish " + i + " was missed: the consumer parked with a tuple queued");
                    }
                    Thread.onSpinWait();
                }
            }
            assertTrue(done.await(10, TimeUnit.SECONDS), "the consumer did not take every tuple");
            assertEquals(0, queued.get());
        } finally {
            consumer.interrupt();
            consumer.join();
        }
    }
}
