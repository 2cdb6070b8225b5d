package io.whale.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.whale.flow.FrameWindow;
import io.whale.flow.RelayInbound;
import io.whale.multicast.BinomialTreeBuilder;
import io.whale.wire.MalformedFrameException;
import io.whale.wire.RelayFrame;
import io.whale.wire.RelayFrameCodec;
import io.whale.wire.RelayFrameMessage;
import io.whale.wire.RelayRoute;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.ConnectionWithStatus;
import org.apache.storm.messaging.netty.Client;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.utils.JCQueue;
import org.junit.jupiter.api.Test;

/**
 * Forged routes (random trees over random tasks, any number of them on one worker, some workers unreachable) at a
 * member of a topology of {@value #WORKERS} workers: whatever a route says, the member sends a frame at most once to each
 * worker, never more copies than the topology has workers, and a route it refuses leaves nothing sent.
 */
class RelayMemberFuzzTest {
    private static final int WORKERS = 6;
    private static final int TASKS = 200;
    private static final int FRAMES = 2_000;
    private final Random random = new Random(20261128L);

    @Test
    void shouldSendAForgedRoutesFrameAtMostOnceToEachWorker() {
        List<NodeInfo> workers = new ArrayList<>();
        Map<NodeInfo, Client> connections = new HashMap<>();
        for (int w = 0; w < WORKERS; w++) {
            NodeInfo worker = new NodeInfo("w" + w, Set.of(6700L));
            workers.add(worker);
            Client client = mock(Client.class);
            when(client.status()).thenReturn(w % 3 == 2 ? ConnectionWithStatus.Status.Connecting : ConnectionWithStatus.Status.Ready);
            when(client.frameWindow()).thenReturn(new FrameWindow(10));
            connections.put(worker, client);
        }
        Map<Integer, NodeInfo> taskToNode = new HashMap<>();
        for (int task = 1; task <= TASKS; task++) {
            taskToNode.put(task, workers.get(random.nextInt(WORKERS)));
        }
        List<RelayFrameMessage> published = new ArrayList<>();
        JCQueue transferQueue = mock(JCQueue.class);
        when(transferQueue.isEmptyOverflow()).thenReturn(true);
        when(transferQueue.tryPublishDirect(any())).thenAnswer(call -> published.add(call.getArgument(0)));
        RelayMember member = new RelayMember(77L, transferQueue, () -> taskToNode, connections::get,
            TreeShaper.fixed(new BinomialTreeBuilder()), held -> new RelayMetrics(new StormMetricRegistry(), held::get), System::nanoTime, task -> false, 0L);

        int refused = 0;
        for (int seq = 1; seq <= FRAMES; seq++) {
            RelayFrame frame = RelayFrameCodec.decode(RelayFrameCodec.encode(9, "default", 11L, 1, seq, forgedRoute(), null,
                new byte[] {1}));
            published.clear();
            try {
                assertTrue(member.receive(frame, RelayInbound.NONE), "frame " + seq + " is its stream's next");
            } catch (MalformedFrameException e) {
                refused++;
                assertEquals(List.of(), published, "a refused route sends nothing");
                continue;
            }
            Set<NodeInfo> reached = new HashSet<>();
            for (RelayFrameMessage copy : published) {
                assertTrue(reached.add(taskToNode.get(copy.routingTask())), "one copy per worker: " + published.size());
            }
            assertTrue(published.size() < WORKERS, "at most one copy to each other worker");
        }
        assertTrue(refused > FRAMES / 100 && refused < FRAMES, "both kinds of route were tried: " + refused + " refused");
    }

    /** A random tree of 2 to 40 members over distinct random tasks, as a forger could build it. */
    private RelayRoute forgedRoute() {
        List<Integer> tasks = new ArrayList<>();
        for (int task = 1; task <= TASKS; task++) {
            tasks.add(task);
        }
        java.util.Collections.shuffle(tasks, random);
        int members = 2 + random.nextInt(39);
        return member(tasks, new int[] {members});
    }

    private RelayRoute member(List<Integer> tasks, int[] left) {
        left[0]--;
        int[] own = new int[1 + random.nextInt(3)];
        for (int i = 0; i < own.length; i++) {
            own[i] = tasks.remove(tasks.size() - 1);
        }
        List<RelayRoute> children = new ArrayList<>();
        int wanted = random.nextInt(5);
        for (int c = 0; c < wanted && left[0] > 0; c++) {
            children.add(member(tasks, left));
        }
        return new RelayRoute(own, children);
    }
}
