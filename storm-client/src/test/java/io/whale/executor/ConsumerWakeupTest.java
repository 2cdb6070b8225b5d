package io.whale.executor;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.policy.WaitStrategyPark;
import org.apache.storm.utils.JCQueue;
import org.junit.jupiter.api.Test;

/** The queue's publishes wake its parked consumer; no interleaving of publish and park loses a wake-up. */
class ConsumerWakeupTest {
    /** Far longer than any test deadline: a consumer that returns woke because of a publish, not the bound. */
    private static final long PARK_FOR_A_MINUTE = TimeUnit.MINUTES.toNanos(1);
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private final JCQueue queue = new JCQueue("test", "test", 1024, 0, 1, new WaitStrategyPark(100), "topo", "bolt",
        List.of(1), 6700, new StormMetricRegistry());

    @Test
    void shouldWakeAParkedConsumerWhenATupleIsPublished() {
        Thread[] consumer = new Thread[1];
        CompletableFuture<Void> woke = CompletableFuture.runAsync(() -> {
            consumer[0] = Thread.currentThread();
            queue.consumerWakeup().park(PARK_FOR_A_MINUTE, () -> queue.size() > 0);
        });
        await().atMost(DEADLINE).until(() -> consumer[0] != null && LockSupport.getBlocker(consumer[0]) == queue.consumerWakeup());

        queue.tryPublish("tuple");

        await().atMost(DEADLINE).until(woke::isDone);
    }

    @Test
    void shouldWakeAParkedConsumerWhenATupleGoesToTheOverflow() {
        Thread[] consumer = new Thread[1];
        CompletableFuture<Void> woke = CompletableFuture.runAsync(() -> {
            consumer[0] = Thread.currentThread();
            queue.consumerWakeup().park(PARK_FOR_A_MINUTE, () -> queue.size() > 0);
        });
        await().atMost(DEADLINE).until(() -> consumer[0] != null && LockSupport.getBlocker(consumer[0]) == queue.consumerWakeup());

        queue.tryPublishToOverflow("tuple");

        await().atMost(DEADLINE).until(woke::isDone);
    }

    @Test
    void shouldNotParkWhenThereIsWorkAlready() {
        queue.tryPublish("tuple");
        assertTimeoutPreemptively(DEADLINE, () -> queue.consumerWakeup().park(PARK_FOR_A_MINUTE, () -> queue.size() > 0));
    }

    /** Forbidden outcome: a publish that lands between the consumer's look and its park leaves it parked. */
    @Test
    void shouldNeverLoseAWakeUpBetweenTheConsumersLookAndItsPark() {
        int rounds = 20_000;
        AtomicInteger consumed = new AtomicInteger();
        JCQueue.Consumer counting = new JCQueue.Consumer() {
            @Override
            public void accept(Object tuple) {
                consumed.incrementAndGet();
            }

            @Override
            public void flush() {
            }
        };
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            CompletableFuture<Void> consumer = CompletableFuture.runAsync(() -> {
                while (consumed.get() < rounds) {
                    int n = queue.consume(counting);
                    if (n == 0) {
                        queue.consumerWakeup().park(PARK_FOR_A_MINUTE, () -> queue.size() > 0);
                    }
                }
            });
            for (int i = 0; i < rounds; i++) {
                while (!queue.tryPublish(i)) {
                    Thread.onSpinWait();
                }
                if (i % 64 == 0) {
                    Thread.yield();
                }
            }
            consumer.join();
        });
        assertEquals(rounds, consumed.get());
    }
}
