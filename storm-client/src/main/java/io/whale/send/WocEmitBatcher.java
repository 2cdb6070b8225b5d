package io.whale.send;

import io.whale.config.WocConfig;
import io.whale.flow.CreditedConnection;
import io.whale.flow.DeliveryTimes;
import io.whale.flow.EmitDelivery;
import io.whale.flow.FrameWindow;
import io.whale.relay.RelayMember;
import io.whale.relay.RelayPeers;
import io.whale.relay.RelayTrees;
import io.whale.relay.TreeShaper;
import io.whale.wire.BatchTupleCodec;
import io.whale.wire.EdgeSeeds;
import io.whale.wire.RelayFrameCodec;
import io.whale.wire.RelayRoute;
import io.whale.woc.TaskWorkers;
import io.whale.woc.WocWorker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import org.apache.storm.daemon.worker.WorkerState;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.serialization.ITupleSerializer;
import org.apache.storm.serialization.KryoValuesSerializer;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.AddressedTuple;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.ConfigUtils;

/**
 * The WOC send path of one executor. The output collectors open a {@link Batch} with {@link #beginEmit} before
 * the per-task loop of every emit and close it in {@code finally}; while it is open, the executor's transfer
 * hands the remote copies (one AddressedTuple per task, each with its own message id) to {@link #collect}
 * instead of serializing each. Closing groups them by destination worker, serializes the values once and
 * publishes one {@link BatchTupleMessage} per worker to the worker transfer queue. The copies' message ids come from
 * {@link Batch#edgeId}, one seed per anchor ({@link EdgeSeeds}): a frame carries the seeds, not each task's ids.
 *
 * <p>Closing in {@code finally} makes an emit that throws half-way (a value a local copy cannot serialize, a
 * bad anchor) end as it would in stock Storm: the copies handed over before the throw are sent, and the next
 * emit, ack or pending-emit retry of the executor finds no batch open (a batch left open would swallow them).
 *
 * <p>A worker with a single destination task and a task whose worker is unknown go the stock way, task by task
 * through {@code tryTransferRemote}. A frame that may not leave now (the executor already has pending emits, a
 * destination task is under remote backpressure, the destination worker's {@link FrameWindow} is full, or the
 * transfer queue is) is parked whole as a {@link HeldFrame} in {@code pendingEmits}, from where the executor
 * retries it in order with the rest, as stock Storm retries a parked tuple. The values are not serialized again,
 * and no copy overtakes the window. A frame whose destination is stalled ({@link FrameWindow#refused}: no credit for
 * {@code whale.woc.stall.ms} while its window is full) is not held, so that one cut-off worker does not hold every
 * other destination of the executor's emits: it goes on beyond the window while the stall buffer lasts
 * ({@link FrameWindow#overdraw}), and is dropped, counted, once it is spent. A relay frame is sent around a member that
 * cannot be reached: built so, the emit's frames include the member's own tuples alone ({@link HeldFrame#alone}) while
 * its children get theirs from here; built before and leaving after, the relay sends it around in its turn
 * ({@link RelayMember#sendAround}).
 *
 * <p>Not thread safe, like the output collectors: one executor thread emits at a time.
 */
public final class WocEmitBatcher {
    /** What an executor uses when WOC is off: never opens a batch, never collects. */
    public static final WocEmitBatcher DISABLED = new WocEmitBatcher(null, null, null, task -> false, () -> false);

    /** Stock per-task remote transfer: {@code WorkerState.tryTransferRemote} with the executor's serializer. */
    @FunctionalInterface
    public interface RemoteTransfer {
        boolean tryTransferRemote(AddressedTuple tuple, Queue<AddressedTuple> pendingEmits);
    }

    /**
     * One emit's batch, opened by {@link #beginEmit}. {@link #close} sends what was collected and closes it, also
     * when the emit threw half-way; if sending throws too, that exception is added to the emit's as suppressed.
     */
    public interface Batch extends AutoCloseable {
        /**
         * The edge id of {@code task}'s copy for the emit's {@code anchor}-th anchor (counting those with roots), in
         * place of Storm's {@code MessageId.generateId(random)}: an open batch derives it from one seed per anchor
         * ({@link EdgeSeeds}), which its frames carry instead of every copy's ids; no batch draws it as Storm does.
         */
        long edgeId(Random random, int anchor, Collection<Long> rootIds, int task);

        /**
         * A spout copy's message id, in place of Storm's {@code MessageId.makeRootId}: an open batch holds the root and
         * edge id in an immutable one-entry map, which the task that acks the copy reads without a table.
         */
        MessageId rootMessageId(long rootId, long edgeId);

        @Override
        void close();
    }

    private static final Batch NO_BATCH = new Batch() {
        @Override
        public long edgeId(Random random, int anchor, Collection<Long> rootIds, int task) {
            return MessageId.generateId(random);
        }

        @Override
        public MessageId rootMessageId(long rootId, long edgeId) {
            return MessageId.makeRootId(rootId, edgeId);
        }

        @Override
        public void close() {
        }
    };

    private final WocWorker worker;
    private final Function<List<Object>, byte[]> valuesSerializer;
    private final RemoteTransfer stockTransfer;
    private final List<AddressedTuple> collected = new ArrayList<>();
    private final RelayTrees trees;
    private final IntPredicate relayedTask;
    /** Whether to time the next grouped emit until its delivery: Storm's stats sampler, one emit in 1/sample-rate. */
    private final BooleanSupplier timeEmit;
    private final EdgeSeeds.Draw seedDraw = new EdgeSeeds.Draw();
    /** The frames parked in the executor's pending emits, by their placeholders (identity: a tuple may be emitted twice). */
    private final Map<AddressedTuple, HeldFrame> held = new IdentityHashMap<>();
    private final Batch openBatch = new Batch() {
        @Override
        public long edgeId(Random random, int anchor, Collection<Long> rootIds, int task) {
            return seedDraw.edgeId(random, anchor, rootIds, task);
        }

        @Override
        public MessageId rootMessageId(long rootId, long edgeId) {
            return MessageId.makeId(Map.of(rootId, edgeId));
        }

        @Override
        public void close() {
            endEmit();
        }
    };
    private Queue<AddressedTuple> openBatchPendingEmits;
    private boolean open;

    /** A batcher that times every grouped emit. */
    WocEmitBatcher(WocWorker worker, Function<List<Object>, byte[]> valuesSerializer, RemoteTransfer stockTransfer) {
        this(worker, valuesSerializer, stockTransfer, task -> true, () -> true);
    }

    /**
     * @param relayedTask whether a task may be reached along a tree: its component is all-grouped ({@link RelayPeers})
     * @param timeEmit    whether to time the next grouped emit until its last destination worker has it
     */
    WocEmitBatcher(WocWorker worker, Function<List<Object>, byte[]> valuesSerializer, RemoteTransfer stockTransfer,
                   IntPredicate relayedTask, BooleanSupplier timeEmit) {
        this.relayedTask = relayedTask;
        this.timeEmit = timeEmit;
        this.worker = worker;
        this.valuesSerializer = valuesSerializer;
        this.stockTransfer = stockTransfer;
        this.trees = worker == null || worker.shaper() == null ? null : new RelayTrees(worker.shaper(), worker.treeBoard());
    }

    /** The batcher of one executor; {@link #DISABLED} unless the topology has {@code whale.woc.enabled}. */
    public static WocEmitBatcher create(WorkerState workerData, Map<String, Object> topoConf,
                                        Supplier<? extends ITupleSerializer> tupleSerializer) {
        if (!WocConfig.isEnabled(topoConf)) {
            return DISABLED;
        }
        WocWorker worker = workerData.getWoc();
        if (worker == null || !worker.isEnabled()) {
            return DISABLED;
        }
        KryoValuesSerializer kryo = new KryoValuesSerializer(topoConf);
        return new WocEmitBatcher(worker, kryo::serialize,
            (tuple, pending) -> workerData.tryTransferRemote(tuple, pending, tupleSerializer.get()),
            relayedTasks(worker, workerData.getWorkerTopologyContext()), ConfigUtils.mkStatsSampler(topoConf));
    }

    /** The tasks of all-grouped components, looked up once so that an emit tests each task with one array read. */
    private static IntPredicate relayedTasks(WocWorker worker, GeneralTopologyContext context) {
        if (worker.shaper() == null) {
            return task -> false;
        }
        Set<String> relayed = RelayPeers.relayedComponents(context);
        int maxTask = context.getTaskToComponent().keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
        boolean[] isRelayed = new boolean[maxTask + 1];
        context.getTaskToComponent().forEach((task, component) -> isRelayed[task] = task >= 0 && relayed.contains(component));
        return task -> task >= 0 && task < isRelayed.length && isRelayed[task];
    }

    /**
     * Opens a batch for an emit to {@code destinationTasks} tasks when WOC is on and there are several; otherwise
     * returns a batch that does nothing and {@link #collect} refuses every tuple. Either way nothing of an
     * earlier emit stays open: a batch its caller failed to close is sent first.
     */
    public Batch beginEmit(int destinationTasks, Queue<AddressedTuple> pendingEmits) {
        if (open) {
            endEmit();
        }
        if (worker == null || destinationTasks < 2) {
            return NO_BATCH;
        }
        this.openBatchPendingEmits = pendingEmits;
        open = true;
        return openBatch;
    }

    /** Takes a remote copy of the emit in progress; false when no batch is open (then the stock path sends it). */
    public boolean collect(AddressedTuple remoteTuple) {
        if (!open) {
            return false;
        }
        collected.add(remoteTuple);
        return true;
    }

    private void endEmit() {
        open = false;
        Queue<AddressedTuple> pending = openBatchPendingEmits;
        openBatchPendingEmits = null;
        try {
            if (collected.size() == 1) {
                sendStock(collected.get(0), pending);
            } else if (collected.size() > 1) {
                sendGrouped(pending, seedDraw.seeds());
            }
        } finally {
            collected.clear();
            seedDraw.clear();
        }
    }

    private void sendGrouped(Queue<AddressedTuple> pendingEmits, EdgeSeeds seeds) {
        EmitDelivery delivery = timeEmit.getAsBoolean() ? new EmitDelivery(System.nanoTime(), worker.metrics()) : EmitDelivery.UNTIMED;
        try {
            sendByWorker(pendingEmits, seeds, delivery);
        } finally {
            delivery.built(System::nanoTime);
        }
    }

    /** @param seeds the message ids of every copy, null when the emit is unanchored */
    private void sendByWorker(Queue<AddressedTuple> pendingEmits, EdgeSeeds seeds, EmitDelivery delivery) {
        worker.metrics().emitBatched();
        TaskWorkers workers = worker.taskWorkers();
        int count = workers.count();
        // with a tree, the copies to all-grouped tasks are grouped apart (slots count.. 2 count - 1): they go along the
        // tree, and the rest of the same emit (a fields-grouped copy to another bolt, as ride-hailing's order to its
        // aggregator) in frames of their own
        boolean alongTree = worker.shaper() != null && pendingEmits != null;
        Map<NodeInfo, List<AddressedTuple>> byWorker = new LinkedHashMap<>();
        Map<NodeInfo, List<AddressedTuple>> relayedByWorker = null;
        int relayedCopies = 0;
        @SuppressWarnings("unchecked")
        List<AddressedTuple>[] groups = new List[alongTree ? 2 * count : count];
        for (AddressedTuple t : collected) {
            int index = workers.workerOf(t.getDest());
            if (index == TaskWorkers.NONE) {
                sendStock(t, pendingEmits);
                continue;
            }
            boolean relayed = alongTree && relayedTask.test(t.getDest());
            int slot = relayed ? count + index : index;
            List<AddressedTuple> group = groups[slot];
            if (group == null) {
                group = new ArrayList<>();
                groups[slot] = group;
                if (relayed && relayedByWorker == null) {
                    relayedByWorker = new LinkedHashMap<>();
                }
                (relayed ? relayedByWorker : byWorker).put(workers.worker(index), group);
            }
            group.add(t);
            relayedCopies += relayed ? 1 : 0;
        }
        byte[] values = null;
        if (relayedByWorker != null && relayedByWorker.size() > 1) {
            values = sendAlongTree(relayedByWorker, relayedCopies, pendingEmits, seeds, delivery);
        } else if (relayedByWorker != null) {
            for (int index = 0; index < count; index++) { // one worker's all-grouped copies: no tree to build
                List<AddressedTuple> relayed = groups[count + index];
                if (relayed != null && groups[index] != null) {
                    groups[index].addAll(relayed);
                } else if (relayed != null) {
                    byWorker.put(workers.worker(index), relayed);
                }
            }
        }
        for (Map.Entry<NodeInfo, List<AddressedTuple>> entry : byWorker.entrySet()) {
            List<AddressedTuple> group = entry.getValue();
            if (group.size() == 1 || pendingEmits == null) {
                group.forEach(t -> sendStock(t, pendingEmits));
                continue;
            }
            if (values == null) {
                values = valuesSerializer.apply(group.get(0).getTuple().getValues());
                worker.metrics().serialized();
            }
            int[] dests = destTasks(group);
            Tuple first = group.get(0).getTuple();
            byte[] frame = BatchTupleCodec.encode(first.getSourceTask(), first.getSourceStreamId(), dests, seeds, values);
            sendOrHold(new HeldFrame(first, entry.getKey(), dests, frame, HeldFrame.NOT_RELAYED, 1, delivery),
                pendingEmits);
        }
    }

    /**
     * The relay path: the destination workers, in an order rotated by the source task (so different sources
     * put different workers inside their trees), become the members of the tree; the source sends each of its
     * children one frame holding that child's subtree, with the values serialized once. A child that cannot be
     * reached is sent around: its children get their frames from the source ({@link RelayMember#reachable}). Each
     * frame waits for backpressure on any task of its subtree and for room for all of them in the window of the
     * connection it leaves on, which the child refills only once the subtree has the frame. Returns the values it
     * serialized, for the frames of the emit's other copies.
     */
    private byte[] sendAlongTree(Map<NodeInfo, List<AddressedTuple>> byWorker, int copies, Queue<AddressedTuple> pendingEmits,
                                 EdgeSeeds seeds, EmitDelivery delivery) {
        TreeShaper shaper = worker.shaper();
        RelayMember relay = worker.relay();
        long start = shaper.emitStart();
        Tuple first = collected.get(0).getTuple();
        byte[] values = valuesSerializer.apply(first.getValues());
        worker.metrics().serialized();
        RelayTrees.Tree tree = trees.tree(byWorker.keySet(), first.getSourceTask());
        long seq = trees.nextSeq(first.getSourceTask(), tree.id());
        List<HeldFrame> frames = new ArrayList<>();
        int bypassedMembers = 0;
        int bypassedTuples = 0;
        while (true) {
            int[][] children = tree.children();
            List<int[]> memberTasks = memberTasks(tree, byWorker);
            Deque<Integer> next = new ArrayDeque<>();
            for (int child : children[0]) {
                next.add(child);
            }
            while (!next.isEmpty()) {
                int node = next.poll();
                NodeInfo member = tree.members().get(node - 1);
                RelayRoute route = RelayRoute.subtree(node, children, memberTasks);
                if (!relay.reachable(member, () -> route.allTasks())) {
                    bypassedMembers++;
                    int[] own = memberTasks.get(node - 1);
                    if (relay.sendsAlone(member)) {
                        frames.add(HeldFrame.alone(first, member, own, RelayFrameCodec.encode(first.getSourceTask(),
                            first.getSourceStreamId(), relay.incarnation(), tree.id(), seq, RelayRoute.leaf(own), seeds, values),
                            tree.epoch(), delivery));
                    } else {
                        bypassedTuples += own.length;
                    }
                    for (int i = children[node].length - 1; i >= 0; i--) {
                        next.addFirst(children[node][i]);
                    }
                    continue;
                }
                byte[] frame = RelayFrameCodec.encode(first.getSourceTask(), first.getSourceStreamId(),
                    relay.incarnation(), tree.id(), seq, route, seeds, values);
                frames.add(new HeldFrame(first, member, route.allTasks(), frame, tree.epoch(), route.depth(), delivery));
            }
            // counted only once built: a frame counted and never sent would hold the next switch for ever
            if (shaper.register(tree.epoch(), frames.size())) {
                break;
            }
            frames.clear();
            bypassedMembers = 0;
            bypassedTuples = 0;
            tree = trees.tree(byWorker.keySet(), first.getSourceTask());
        }
        if (bypassedMembers > 0) {
            relay.bypassed(bypassedMembers, bypassedTuples);
        }
        frames.forEach(frame -> sendOrHold(frame, pendingEmits));
        shaper.emitted(tree.members().size(), frames.size(), copies, start);
        return values;
    }

    private static List<int[]> memberTasks(RelayTrees.Tree tree, Map<NodeInfo, List<AddressedTuple>> byWorker) {
        List<int[]> memberTasks = new ArrayList<>(tree.members().size());
        for (NodeInfo member : tree.members()) {
            memberTasks.add(destTasks(byWorker.get(member)));
        }
        return memberTasks;
    }

    private void sendOrHold(HeldFrame frame, Queue<AddressedTuple> pendingEmits) {
        frame.delivery().frameBuilt();
        if (!pendingEmits.isEmpty() || !trySend(frame, false)) {
            held.put(frame.placeholder(), frame);
            pendingEmits.add(frame.placeholder());
            worker.metrics().frameHeld();
        }
    }

    /** Whether {@code pending} is the placeholder of a frame this batcher parked and has not sent yet. */
    public boolean holds(AddressedTuple pending) {
        return !held.isEmpty() && held.containsKey(pending);
    }

    /**
     * Sends the frame parked by an earlier emit in {@code placeholder}'s place ({@link #holds}) if it may leave now;
     * otherwise parks it in {@code pendingEmits} when there is one, as stock Storm parks a tuple (a retry from the
     * executor's pending emits passes none: the placeholder stays at their head).
     *
     * @return true if it was sent (or dropped for a stalled destination whose stall buffer is spent, counted)
     */
    public boolean retryHeld(AddressedTuple placeholder, Queue<AddressedTuple> pendingEmits) {
        boolean sent = (pendingEmits == null || pendingEmits.isEmpty()) && trySend(held.get(placeholder), true);
        if (sent) {
            held.remove(placeholder);
        } else if (pendingEmits != null) {
            pendingEmits.add(placeholder);
        }
        return sent;
    }

    /**
     * Publishes the frame unless a destination task is under backpressure, the window is full or the queue is, or
     * it is a relay frame built for a tree shape that has not taken over yet. A relay frame {@code retried} from the pending
     * emits whose member cannot be reached now is sent around it; one sent as it is built was built for what
     * {@link RelayMember#reachable} said a moment ago, so it is not asked again.
     */
    private boolean trySend(HeldFrame frame, boolean retried) {
        for (int task : frame.destTasks()) {
            if (worker.isUnderBackPressure(task)) {
                return false;
            }
        }
        if (frame.relayed() && !worker.shaper().mayLeave(frame.epoch())) {
            return false;
        }
        if (retried && frame.relayed() && !frame.alone() && !worker.relay().reachable(frame.worker(), frame::destTasks)) {
            sendAround(frame);
            return true;
        }
        FrameWindow window = worker.frameWindow(frame.worker());
        int tuples = frame.destTasks().length;
        boolean beyondWindow = false;
        if (!window.tryAcquire(tuples, frame.hops())) {
            if (!window.refused()) {
                frame.windowBlocked(System.nanoTime());
                if (frame.relayed()) {
                    worker.shaper().windowFull();
                }
                return false;
            }
            if (!window.overdraw(tuples, frame.frame().length)) {
                dropStalled(frame, tuples);
                return true;
            }
            beyondWindow = true;
        }
        int awaited = 0; // what a switch of shapes waits to be credited: only a CreditedConnection returns credit
        boolean kept = false; // by the relay until credited, so that it goes on below a child lost before
        if (frame.relayed()) {
            if (worker.connection(frame.worker()) instanceof CreditedConnection connection) {
                worker.relay().link(connection, frame.worker());
                awaited = frame.alone() ? 0 : tuples;
                worker.relay().sending(frame.worker(), tuples, frame.frame());
                kept = true;
            }
            worker.shaper().sent(frame.epoch(), frame.worker(), awaited);
        }
        DeliveryTimes.Frame timed = window.timeDelivery(frame.delivery(), tuples);
        if (!worker.transferQueue().tryPublish(frame.message())) {
            window.cancel(tuples, timed);
            if (frame.relayed()) {
                worker.shaper().cancel(frame.epoch(), frame.worker(), awaited);
            }
            if (kept) {
                worker.relay().notSent(frame.worker(), frame.frame());
            }
            return false;
        }
        if (timed == null && frame.delivery().timed()) {
            frame.delivery().done(System.nanoTime()); // a window without credit: a sampled frame is done once sent
        }
        worker.metrics().frameSent(frame.worker(), tuples, frame.frame().length);
        if (beyondWindow) {
            worker.metrics().frameSentStalled(tuples);
        }
        if (frame.wasWindowBlocked()) {
            worker.metrics().windowBlocked(frame.windowBlockedNanos(System.nanoTime()));
        }
        if (frame.relayed()) {
            worker.relay().metrics().frameSent();
        }
        if (frame.alone()) {
            worker.relay().metrics().sentStalled(tuples);
        }
        return true;
    }

    /**
     * A relay frame built for a member that cannot be reached now that it may leave: the relay sends it around
     * ({@link RelayMember#sendAround}), in its turn; it counts as sent for the tree's switch, owing no credit, its emit
     * not timed.
     */
    private void sendAround(HeldFrame frame) {
        worker.relay().sendAround(frame.worker(), frame.frame());
        worker.shaper().sent(frame.epoch(), frame.worker(), 0);
        frame.delivery().abandon();
        frame.delivery().done(System.nanoTime());
    }

    /**
     * Drops a frame for a stalled destination: counted here (and by the relay for its own tuples), its emit not timed;
     * a relay frame counts as sent for the tree's switch, owing no credit.
     */
    private void dropStalled(HeldFrame frame, int tuples) {
        worker.metrics().frameDroppedStalled(tuples);
        frame.delivery().abandon();
        frame.delivery().done(System.nanoTime());
        if (frame.relayed()) {
            worker.shaper().sent(frame.epoch(), frame.worker(), 0);
            worker.relay().bypassed(0, tuples);
        }
    }

    private void sendStock(AddressedTuple tuple, Queue<AddressedTuple> pendingEmits) {
        if (stockTransfer.tryTransferRemote(tuple, pendingEmits)) {
            worker.metrics().serialized();
        }
    }

    private static int[] destTasks(List<AddressedTuple> group) {
        int[] dests = new int[group.size()];
        for (int i = 0; i < dests.length; i++) {
            dests[i] = group.get(i).getDest();
        }
        return dests;
    }
}
