package io.whale.rdma.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** {@link OrderedDelivery} on an executor whose tasks the test runs by hand, one at a time. */
class OrderedDeliveryTest {
    /** Queues tasks; {@link #runNext} runs the oldest. Refuses everything once shut. */
    private static final class ManualExecutor implements Executor {
        final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
        boolean shut;

        @Override
        public void execute(Runnable task) {
            if (shut) {
                throw new RejectedExecutionException("shut");
            }
            tasks.add(task);
        }

        void runNext() {
            tasks.poll().run();
        }
    }

    @Test
    void shouldRunDeliveriesInSubmissionOrderAsOneTaskAtATime() {
        ManualExecutor executor = new ManualExecutor();
        OrderedDelivery delivery = new OrderedDelivery(executor);
        List<Integer> ran = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int n = i;
            assertTrue(delivery.submit(() -> ran.add(n)));
        }
        assertEquals(1, executor.tasks.size(), "one drain is scheduled, however many deliveries wait");
        executor.runNext();
        assertEquals(List.of(0, 1, 2, 3, 4), ran);
        assertTrue(executor.tasks.isEmpty());
    }

    @Test
    void shouldYieldToOtherChannelsAfterATurn() {
        ManualExecutor executor = new ManualExecutor();
        OrderedDelivery busy = new OrderedDelivery(executor);
        OrderedDelivery other = new OrderedDelivery(executor);
        List<String> ran = new ArrayList<>();
        IntStream.range(0, OrderedDelivery.TURN + 3).forEach(i -> busy.submit(() -> ran.add("busy" + i)));
        other.submit(() -> ran.add("other"));
        executor.runNext(); // busy's first turn
        assertEquals(OrderedDelivery.TURN, ran.size());
        executor.runNext(); // other, queued behind busy's first turn
        assertEquals("other", ran.get(OrderedDelivery.TURN));
        executor.runNext(); // the rest of busy, in order
        assertEquals("busy" + (OrderedDelivery.TURN + 2), ran.get(ran.size() - 1));
        assertEquals(OrderedDelivery.TURN + 4, ran.size());
    }

    @Test
    void shouldRefuseWhenTheExecutorIsShutAndFinishAQueuedTurnInline() {
        ManualExecutor executor = new ManualExecutor();
        OrderedDelivery delivery = new OrderedDelivery(executor);
        List<Integer> ran = new ArrayList<>();
        IntStream.range(0, OrderedDelivery.TURN + 2).forEach(i -> delivery.submit(() -> ran.add(i)));
        executor.shut = true;
        executor.runNext();
        assertEquals(OrderedDelivery.TURN + 2, ran.size(), "what was queued before the shutdown is delivered");
        assertFalse(delivery.submit(() -> ran.add(-1)), "nothing is taken after the shutdown");
        assertEquals(OrderedDelivery.TURN + 2, ran.size());
    }
}
