package io.whale.relay;

import io.whale.config.WhaleConfig;
import io.whale.flow.CreditStall;
import io.whale.flow.CreditedConnection;
import io.whale.flow.RelayLink;
import io.whale.wire.MalformedFrameException;
import io.whale.wire.RelayCredit;
import io.whale.wire.RelayFrame;
import io.whale.wire.RelayFrameCodec;
import io.whale.wire.RelayFrameMessage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.ConnectionWithStatus;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.utils.JCQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's part in the relay trees: as a member it takes each relay frame, forwards each child its frame through
 * the worker's transfer queue (never blocking the receiving thread: the overflow takes what the queue cannot) and
 * returns the frame for local delivery; it credits the sender once the frame is done in its subtree
 * ({@link RelayCreditLedger}). As a root it hands its own credit ({@link #incarnation}) to the frame window of the
 * connection it came back on and to the {@link TreeShaper}, which waits for it to switch shapes. Frames that
 * repeat or are off their source's current stream are dropped, counted and credited at once ({@link SequenceFilter}).
 * A child whose worker is unknown or whose connection is not up is sent around ({@link #reachable}): its children get
 * their frames from here, and its own tuples are counted lost, as Storm's client counts what it drops while
 * reconnecting. So is a child whose frames this worker roots have been in flight with no credit for
 * {@code whale.woc.stall.ms} ({@link io.whale.flow.FrameWindow#stalled}): what it owed is settled, as when its
 * connection closes, until its next credit. So is a child that has owed credit for frames forwarded to it, with none
 * coming, for the bound ({@link #checkStalls}, run by the worker's stall watch): a member sends around its cut-off
 * child itself, and meanwhile beats to its own parents (a credit of 0 tuples) so that they do not take it for cut off
 * too (see RELAY.md). A stalled child, whose connection is up, is still sent its own tuples alone, into a stall buffer
 * ({@link #bufferForStalledMembers}): only a child that stays silent past it loses them. The frames a lost child was
 * forwarded and had not credited are sent on to its children from here ({@link #settleLost}): those it had not
 * forwarded yet reach them before the frames sent around it, in order, and those they have are dropped there as
 * repeats. A member without a connection up,
 * or unknown here, also makes the worker refresh its connections now ({@link ConnectOnDemand}): a restarted worker is
 * connected to within a round of the assignment's reading, not at the next 10-s refresh. Frames taken before the
 * worker is active (its server takes frames before its own connections are up) are forwarded once it is
 * ({@link #holdUntilActive}), not sent around a child the worker has not connected to yet.
 */
public final class RelayMember {
    private static final Logger LOG = LoggerFactory.getLogger(RelayMember.class);
    private static final int INCARNATION_RANDOM_BITS = 20;
    /**
     * Where the credit for frames sent on below a lost child goes: nowhere, since their parent's was settled with the
     * child ({@link #settleLost}).
     */
    private static final Consumer<TaskMessage> SETTLED_PARENT = message -> { };

    private final long incarnation;
    private final JCQueue transferQueue;
    private final Supplier<Map<Integer, NodeInfo>> taskToNode;
    private final Function<NodeInfo, IConnection> connections;
    private final RelayMetrics metrics;
    private final TreeShaper shaper;
    private final SequenceFilter filter = new SequenceFilter();
    private final RelayCreditLedger<Consumer<TaskMessage>, NodeInfo, byte[]> ledger = new RelayCreditLedger<>();
    /**
     * The frames this worker roots, each kept until its child credits it (what the frame windows have in flight), so
     * that a lost child's can be sent on below it; their credit goes to the windows and the shaper, not to a parent.
     */
    private final RelayCreditLedger<Consumer<TaskMessage>, NodeInfo, byte[]> rooted = new RelayCreditLedger<>();
    private final Map<CreditedConnection, Boolean> linked = new ConcurrentHashMap<>();
    private final Set<NodeInfo> unreachable = ConcurrentHashMap.newKeySet();
    private final ConnectOnDemand connectOnDemand;
    private final LongSupplier nanoClock;
    private final IntPredicate underBackPressure;
    private final long stallNanos;
    /** Per child: how long its forwards have waited for its credit (or beat), and the last of them. */
    private final Map<NodeInfo, ChildWatch> forwardWatches = new ConcurrentHashMap<>();
    /** Frames taken before the worker was active, in order, forwarded once it is; under the member's lock. */
    private final Deque<HeldFrame> beforeActive = new ArrayDeque<>();
    /** When the first of {@link #beforeActive} was taken: its hold ends at the stall bound, active or not. */
    private long holdingSinceNanos;
    private volatile long heldBeforeActiveTuples;
    private volatile boolean active = true;
    /** What a stalled member sent around may be sent of its own tuples, in bytes ({@link #bufferForStalledMembers}). */
    private volatile int stallBufferBytes;
    /** Per stalled member sent around: the bytes of its own tuples sent it since it stalled. */
    private final Map<NodeInfo, Long> stalledBytes = new ConcurrentHashMap<>();

    /**
     * @param nanoClock the clock of the sequence filter, the connection refreshes and the stall bound
     * @param underBackPressure whether a remote task is under Storm's backpressure: a child with such a task in its
     *     subtree is alive
     * @param stallNanos how long a child may owe credit for forwarded frames with none coming ({@code whale.woc.stall.ms}; 0: for ever)
     */
    public RelayMember(long incarnation, JCQueue transferQueue, Supplier<Map<Integer, NodeInfo>> taskToNode,
                       Function<NodeInfo, IConnection> connections, TreeShaper shaper,
                       Function<Supplier<Long>, RelayMetrics> metrics, LongSupplier nanoClock, IntPredicate underBackPressure,
                       long stallNanos) {
        this.incarnation = incarnation;
        this.nanoClock = nanoClock;
        this.stallNanos = stallNanos;
        this.underBackPressure = underBackPressure;
        this.connectOnDemand = new ConnectOnDemand(nanoClock.getAsLong());
        this.shaper = shaper;
        this.transferQueue = transferQueue;
        this.taskToNode = taskToNode;
        this.connections = connections;
        this.metrics = metrics.apply(() -> ledger.heldTuples() + heldBeforeActiveTuples);
        this.metrics.unreachableMembers(() -> (long) unreachable.size());
        this.metrics.evictedStreams(filter::evictedStreams);
    }

    /**
     * A new launch's incarnation: the launch time in milliseconds above 20 random bits. A later launch of a worker
     * compares higher, and workers launched in the same millisecond (a local cluster's, or two hosts') still differ:
     * a member tells the credit for frames it rooted from credit it owes a parent by the incarnation alone.
     */
    public static long newIncarnation() {
        return (System.currentTimeMillis() << INCARNATION_RANDOM_BITS)
            | ThreadLocalRandom.current().nextInt(1 << INCARNATION_RANDOM_BITS);
    }

    /** This worker's launch, stamped on the frames it roots. */
    public long incarnation() {
        return incarnation;
    }

    public RelayMetrics metrics() {
        return metrics;
    }

    /**
     * A child sent around while its connection is up (it returns no credit) is sent its own tuples alone, up to
     * {@code bytes} from the time it stalled ({@code whale.woc.stall.buffer.bytes}; 0, the default: they are lost). Called
     * once, as the worker is built.
     */
    public void bufferForStalledMembers(int bytes) {
        stallBufferBytes = bytes;
    }

    /**
     * A frame this worker roots ({@code frame}, carrying {@code tuples}) is leaving for {@code child}: kept until the
     * child credits it, so that if the child is lost first it is sent on below the child ({@link #settleLost}). Called
     * before it can be sent, as its window is taken before.
     */
    public void sending(NodeInfo child, int tuples, byte[] frame) {
        rooted.received(SETTLED_PARENT, incarnation, 0, List.of(child), new int[] {tuples}, List.of(frame));
    }

    /** The frame of {@link #sending} could not be handed on after all. */
    public void notSent(NodeInfo child, byte[] frame) {
        rooted.withdraw(child, incarnation, frame);
    }

    /**
     * Whether a member sent around is still sent its own tuples alone: its connection is up (it stalled, it did not go)
     * and stalled members have a buffer ({@link #bufferForStalledMembers}).
     */
    public boolean sendsAlone(NodeInfo node) {
        return stallBufferBytes > 0 && up(connections.apply(node));
    }

    /**
     * A frame this worker rooted for {@code node} (its whole subtree's), built while {@code node} could be reached and
     * leaving once it cannot ({@link #reachable}): sent around it as a lost child's frame is ({@link #settleLost}), its
     * children getting theirs from here, and {@code node} its own tuples alone if it {@link #sendsAlone}, else counted
     * lost. Called by the sending executor in the frame's turn, so that everything below gets it in order.
     */
    public synchronized void sendAround(NodeInfo node, byte[] frame) {
        RelayFrame decoded = RelayFrameCodec.decode(frame);
        metrics.repaired(1);
        if (sendsAlone(node)) {
            sendAlone(decoded, node, decoded.tasks()[0], RelayFrameCodec.alone(decoded), decoded.tasks().length);
        } else {
            metrics.lost(decoded.tasks().length);
        }
        int tuplesBelow = decoded.subtreeTasks() - decoded.tasks().length;
        if (tuplesBelow > 0) {
            sendOnBelow(decoded, tuplesBelow);
        }
    }

    /**
     * From now on frames are held, not forwarded, until {@link #activated}: the worker's server takes frames from its
     * first moment, but its own connections come up over the next second (Storm's client retries while the peers'
     * servers start; its executors wait for all of them). Sent around, a child not yet connected to would lose its
     * own tuples at every start. Called once, as the worker is built.
     */
    public void holdUntilActive() {
        active = false;
    }

    /**
     * The worker is active: every connection it needs is up. What was held is forwarded, in order; from now on every
     * frame is forwarded as it comes.
     */
    public synchronized void activated() {
        active = true;
        forwardHeld();
    }

    /**
     * Takes a relay frame received on the connection {@code parent} (where its credit goes), decoded and checked by the
     * caller (its source, stream, values and every task of its route are the topology's): plans its forwards, filters
     * it, and forwards it to its children. Before the worker is active ({@link #holdUntilActive}) it is held instead, its direct
     * children's workers checked alone (a route that reaches one worker twice only once a child is sent around is
     * refused when it is forwarded, counted in {@code relay-frames-refused}).
     *
     * @return whether the caller delivers the frame's tasks here: false when it was a duplicate or stale
     * @throws MalformedFrameException when its route sends two members' frames to one worker; nothing was sent,
     *     and the caller credits the frame as refused ({@link #refused})
     */
    public boolean receive(RelayFrame frame, Consumer<TaskMessage> parent) {
        metrics.frameReceived();
        synchronized (this) {
            boolean holding = holding();
            Forwards forwards = null;
            if (holding) {
                checkChildren(frame);
            } else {
                forwards = plan(frame);
            }
            SequenceFilter.Verdict verdict = filter.accept(frame.sourceTask(), frame.treeId(), frame.incarnation(), frame.seq(),
                nanoClock.getAsLong());
            if (verdict != SequenceFilter.Verdict.DELIVER) {
                if (verdict == SequenceFilter.Verdict.DUPLICATE) {
                    metrics.duplicate();
                } else {
                    metrics.stale();
                }
                credit(parent, frame.incarnation(), frame.subtreeTasks());
                return false;
            }
            if (holding) {
                hold(frame, parent);
            } else {
                forwardHeld();
                forwardAndRegister(frame, forwards, parent);
            }
        }
        return true;
    }

    /** A frame taken before the worker was active, and the connection it came on. */
    private record HeldFrame(RelayFrame frame, Consumer<TaskMessage> parent) {
    }

    /**
     * Whether frames are held: the worker is not active yet, and nothing has been held for the stall bound; once
     * something has, the hold ends here for good (the caller then forwards what was held).
     */
    private boolean holding() {
        if (active) {
            return false;
        }
        if (stallNanos > 0 && !beforeActive.isEmpty() && nanoClock.getAsLong() - holdingSinceNanos >= stallNanos) {
            active = true;
            LOG.warn("This worker was not active within {} of its first relay frame: its relay frames go on now, around the"
                     + " members it has no connection up to (relay-tuples-lost)", WhaleConfig.WOC_STALL_MS);
            return false;
        }
        return true;
    }

    private void hold(RelayFrame frame, Consumer<TaskMessage> parent) {
        if (beforeActive.isEmpty()) {
            holdingSinceNanos = nanoClock.getAsLong();
        }
        beforeActive.add(new HeldFrame(frame, parent));
        heldBeforeActiveTuples += frame.subtreeTasks();
    }

    /** Forwards what was held before the worker was active, in order; must hold the lock. */
    private void forwardHeld() {
        while (!beforeActive.isEmpty()) {
            HeldFrame held = beforeActive.poll();
            heldBeforeActiveTuples -= held.frame().subtreeTasks();
            try {
                forwardAndRegister(held.frame(), plan(held.frame()), held.parent());
            } catch (MalformedFrameException e) {
                metrics.refused();
                credit(held.parent(), held.frame().incarnation(), held.frame().subtreeTasks());
                LOG.warn("Refused a relay frame taken before this worker was active: {}", e.getMessage());
            }
        }
    }

    /** Refuses a frame whose direct children are on one worker; nothing else is planned before the worker is active. */
    private void checkChildren(RelayFrame frame) {
        Set<NodeInfo> sentTo = new HashSet<>();
        Map<Integer, NodeInfo> nodes = taskToNode.get();
        for (RelayFrame.Child child : frame.children()) {
            NodeInfo node = nodes.get(child.firstTask());
            if (node != null && !sentTo.add(node)) {
                throw twice(frame, node);
            }
        }
    }

    private static MalformedFrameException twice(RelayFrame frame, NodeInfo node) {
        return new MalformedFrameException("Relay frame of source task " + frame.sourceTask()
                                                + " routes two members to worker " + RelayTrees.address(node));
    }

    /**
     * A frame that decoded but was refused (it failed a check): credited to the connection it came on at once, as a
     * dropped duplicate is, so that a sender's frame window never waits for it. A window takes back no more than it has
     * in flight, so a forged frame's credit cannot widen it.
     */
    public void refused(RelayFrame frame, Consumer<TaskMessage> inbound) {
        credit(inbound, frame.incarnation(), frame.subtreeTasks());
    }

    /**
     * Where a frame goes: each child's route and worker, those whose credit is awaited (and the index of their routes),
     * the tuples done here, and the stalled members sent around that are sent their own tuples alone.
     */
    private record Forwards(List<RelayFrame.Child> routes, List<NodeInfo> awaited, List<Integer> awaitedRoutes,
                            List<CreditedConnection> connections, int[] awaitedTuples, int done, int bypassedMembers, int lostTuples,
                            List<Alone> alone) {
    }

    /** A stalled member sent around, at the top of {@code route}, and its own tuples in the frame. */
    private record Alone(RelayFrame.Child route, NodeInfo node, int ownTuples) {
    }

    /**
     * Walks the frame's routes, sending nothing: a child that cannot be reached is bypassed (its children are sent
     * their frames from here, and so on down; one whose connection is up, stalled, is sent its own tuples alone), and a
     * route that reaches one worker twice is refused whole, so a frame is forwarded at most once to each worker of the
     * topology, whatever its route says.
     */
    private Forwards plan(RelayFrame frame) {
        Deque<RelayFrame.Child> routes = new ArrayDeque<>(frame.children());
        List<RelayFrame.Child> forwards = new ArrayList<>(routes.size());
        Set<NodeInfo> sentTo = new HashSet<>();
        List<NodeInfo> awaited = new ArrayList<>(routes.size());
        List<Integer> awaitedRoutes = new ArrayList<>(routes.size());
        List<CreditedConnection> credited = new ArrayList<>(routes.size());
        int[] awaitedTuples = new int[routes.size()];
        int done = frame.tasks().length;
        int bypassed = 0;
        int lost = 0;
        List<Alone> alone = new ArrayList<>(0);
        Map<Integer, NodeInfo> nodes = taskToNode.get();
        while (!routes.isEmpty()) {
            RelayFrame.Child child = routes.poll();
            NodeInfo node = nodes.get(child.firstTask());
            if (node == null) {
                connectNow();
            }
            if (node == null || !reachable(node, () -> RelayFrameCodec.subtreeTasksOf(frame, child))) {
                List<RelayFrame.Child> below = RelayFrameCodec.childrenOf(frame, child);
                int own = child.subtreeTasks() - below.stream().mapToInt(RelayFrame.Child::subtreeTasks).sum();
                bypassed++;
                done += own;
                if (node != null && sendsAlone(node)) {
                    if (!sentTo.add(node)) {
                        throw twice(frame, node);
                    }
                    alone.add(new Alone(child, node, own));
                } else {
                    lost += own;
                }
                for (int i = below.size() - 1; i >= 0; i--) {
                    routes.addFirst(below.get(i));
                }
                continue;
            }
            if (!sentTo.add(node)) {
                throw twice(frame, node);
            }
            if (connections.apply(node) instanceof CreditedConnection connection) {
                credited.add(connection);
                if (awaited.size() == awaitedTuples.length) {
                    awaitedTuples = Arrays.copyOf(awaitedTuples, 2 * awaitedTuples.length + 1);
                }
                awaitedTuples[awaited.size()] = child.subtreeTasks();
                awaited.add(node);
                awaitedRoutes.add(forwards.size());
            } else {
                done += child.subtreeTasks();
            }
            forwards.add(child);
        }
        return new Forwards(forwards, awaited, awaitedRoutes, credited, Arrays.copyOf(awaitedTuples, awaited.size()), done, bypassed,
            lost, alone);
    }

    /**
     * Must hold the lock: the forwards enter the transfer queue in the order their shares enter the ledger. The
     * ledger keeps each awaited child's copy until the child credits it (so that a lost child's frames can be sent on
     * below it): what is held is what the source's frame window has in flight.
     */
    private void forwardAndRegister(RelayFrame frame, Forwards forwards, Consumer<TaskMessage> parent) {
        if (forwards.bypassedMembers() > 0) {
            bypassed(forwards.bypassedMembers(), forwards.lostTuples());
        }
        for (int i = 0; i < forwards.awaited().size(); i++) {
            link(forwards.connections().get(i), forwards.awaited().get(i));
        }
        List<RelayFrame.Child> routes = forwards.routes();
        List<byte[]> copies = new ArrayList<>(routes.size());
        for (RelayFrame.Child route : routes) {
            copies.add(RelayFrameCodec.forward(frame, route));
        }
        List<byte[]> awaitedCopies = new ArrayList<>(forwards.awaited().size());
        for (int route : forwards.awaitedRoutes()) {
            awaitedCopies.add(copies.get(route));
        }
        boolean rootedHere = frame.incarnation() == incarnation;
        RelayCreditLedger.Release<Consumer<TaskMessage>> now = (rootedHere ? rooted : ledger).received(parent,
            frame.incarnation(), forwards.done(), forwards.awaited(), forwards.awaitedTuples(), awaitedCopies);
        if (rootedHere) { // a lost child's frames sent on by their root: its windows and shaper wait for their credit
            for (int i = 0; i < forwards.awaited().size(); i++) {
                forwards.connections().get(i).frameWindow().sentBeyond(forwards.awaitedTuples()[i]);
                shaper.sentOn(forwards.awaited().get(i), forwards.awaitedTuples()[i]);
            }
        } else if (stallNanos > 0 && !forwards.awaited().isEmpty()) {
            long nowNanos = nanoClock.getAsLong();
            for (int i = 0; i < forwards.awaited().size(); i++) {
                forwardWatches.computeIfAbsent(forwards.awaited().get(i), c -> new ChildWatch(stallNanos))
                    .forwarded(frame, routes.get(forwards.awaitedRoutes().get(i)), nowNanos);
            }
        }
        for (int i = 0; i < routes.size(); i++) {
            publish(new RelayFrameMessage(routes.get(i).firstTask(), copies.get(i)));
        }
        for (Alone member : forwards.alone()) {
            sendAlone(frame, member.node(), member.route().firstTask(), RelayFrameCodec.forwardAlone(frame, member.route()),
                member.ownTuples());
        }
        if (now != null) {
            credit(now.parent(), now.incarnation(), now.tuples());
        }
    }

    /**
     * Whether frames can go to {@code node} now: its connection is up and it returns credit. When it does not (a dead,
     * restarting or cut-off worker), its parent in a tree, the source or a member, sends its children their frames
     * itself and counts the member's own tuples lost ({@link #bypassed}): the tree repairs itself where the failure
     * shows, with no message, as soon as the parent's connection or the stall bound shows it, and heals when the
     * connection or the credit is back. Logged once each way.
     *
     * @param subtreeTasks the tasks of {@code node} and of every member below it on the way the frame goes, read only
     *     once its window is found stalled: the credit {@code node} owes comes back only once they all have the frame
     */
    public boolean reachable(NodeInfo node, Supplier<int[]> subtreeTasks) {
        IConnection connection = connections.apply(node);
        boolean up = up(connection);
        if (!up) {
            connectNow();
        }
        boolean stalled = up && stalled(node, connection, subtreeTasks);
        if (up && !stalled) {
            if (!unreachable.isEmpty() && unreachable.remove(node)) {
                stalledBytes.remove(node);
                LOG.info("Relay member {} is reachable again and relays for its trees again", RelayTrees.address(node));
            }
        } else if (unreachable.add(node)) {
            LOG.warn("Relay member {} cannot be reached ({}): this worker sends its children in the relay trees their frames"
                     + " until it is back; tuples for its own tasks are lost meanwhile (relay-tuples-lost)", RelayTrees.address(node),
                     stalled ? "no credit for whale.woc.stall.ms" : "its connection is down");
            if (stalled) {
                onStalled(node);
            }
        }
        return up && !stalled;
    }

    private static boolean up(IConnection connection) {
        return connection != null
            && !(connection instanceof ConnectionWithStatus c && c.status() != ConnectionWithStatus.Status.Ready);
    }

    /**
     * The worker's connection refresh, run when a frame names a member this worker has no connection up to or does
     * not know ({@link ConnectOnDemand}); set once the worker is built.
     */
    public void refreshConnectionsWith(Runnable refresh) {
        connectOnDemand.refreshWith(refresh);
    }

    private void connectNow() {
        try {
            if (connectOnDemand.request(nanoClock.getAsLong())) {
                metrics.connectRequested();
            }
        } catch (RuntimeException stopping) {
            LOG.debug("Could not ask for a connection refresh (the worker is stopping?)", stopping);
        }
    }

    /**
     * Whether the frames this worker roots for a member have been in flight with no credit for the bound,
     * and no task of its subtree is under Storm's backpressure: a worker that says its queues are full is alive and
     * slow, and so is a relay waiting for such a worker's credit; both are held back by the flag, not sent around.
     */
    private boolean stalled(NodeInfo node, IConnection connection, Supplier<int[]> subtreeTasks) {
        ChildWatch forwarded = forwardWatches.get(node);
        boolean silent = (connection instanceof CreditedConnection credited && credited.frameWindow().stalled())
            || (forwarded != null && forwarded.stall.stalled(nanoClock));
        return silent && !anyUnderBackPressure(subtreeTasks.get());
    }

    /**
     * The worker's stall watch, a few times per bound: a child that has owed credit for frames forwarded to it, with
     * no credit or beat coming, for the bound is sent around from now on, what it owed settled as lost
     * ({@link #reachable}); and every parent still waiting for this member's credit for a frame a child owes gets a beat,
     * so that it waits for the member to settle its child rather than send around the member too. A frame need not
     * arrive for either: a parent whose window to this member is full sends none. Frames held before the worker was
     * active are forwarded once they have been held for the bound, and their parents get beats meanwhile.
     */
    public synchronized void checkStalls() {
        if (!active && !holding()) {
            forwardHeld();
        }
        for (Map.Entry<NodeInfo, ChildWatch> entry : forwardWatches.entrySet()) {
            NodeInfo child = entry.getKey();
            if (entry.getValue().stall.stalled(nanoClock) && !unreachable.contains(child)) {
                reachable(child, entry.getValue()::subtreeTasks);
            }
        }
        for (RelayCreditLedger.Release<Consumer<TaskMessage>> waiting : ledger.waitingParents()) {
            beat(waiting.parent(), waiting.incarnation());
        }
        beforeActive.stream().map(held -> Map.entry(held.parent(), held.frame().incarnation())).distinct()
            .forEach(waiting -> beat(waiting.getKey(), waiting.getValue()));
    }

    /** Called only for a member found silent, seldom. */
    private boolean anyUnderBackPressure(int[] tasks) {
        for (int task : tasks) {
            if (underBackPressure.test(task)) {
                return true;
            }
        }
        return false;
    }

    /** {@code members} were sent around ({@link #reachable}); {@code ownTuples} of the frame were for their own tasks. */
    public void bypassed(int members, int ownTuples) {
        metrics.repaired(members);
        metrics.lost(ownTuples);
    }

    private void publish(TaskMessage forward) {
        if ((transferQueue.isEmptyOverflow() && transferQueue.tryPublishDirect(forward))
            || transferQueue.tryPublishToOverflow(forward)) {
            metrics.frameForwarded(forward.message().length);
        } else {
            transferQueue.recordMsgDrop();
        }
    }

    /** Makes {@code connection} report the relay credit it reads and its disconnects here; before the first frame on it. */
    public void link(CreditedConnection connection, NodeInfo node) {
        if (linked.putIfAbsent(connection, Boolean.TRUE) == null) {
            connection.relayLink(new RelayLink() {
                @Override
                public void credited(List<RelayCredit.Entry> entries) {
                    onCredit(node, connection, entries);
                }

                @Override
                public void disconnected() {
                    onDisconnected(node);
                }
            });
        }
    }

    private synchronized void onCredit(NodeInfo child, CreditedConnection connection, List<RelayCredit.Entry> entries) {
        for (RelayCredit.Entry entry : entries) {
            if (entry.incarnation() == incarnation) {
                if (entry.tuples() == 0) {
                    connection.frameWindow().alive();
                } else {
                    connection.frameWindow().credit(entry.tuples());
                    shaper.credited(child, entry.tuples());
                    rooted.credited(child, incarnation, entry.tuples()); // its releases go to no parent
                }
                continue;
            }
            for (RelayCreditLedger.Release<Consumer<TaskMessage>> release : ledger.credited(child, entry.incarnation(), entry.tuples())) {
                credit(release.parent(), release.incarnation(), release.tuples());
            }
        }
        ChildWatch forwarded = forwardWatches.get(child);
        if (forwarded != null) {
            forwarded.stall.credited();
            if (ledger.owes(child)) {
                forwarded.stall.waiting(nanoClock);
            }
        }
    }

    private synchronized void onDisconnected(NodeInfo child) {
        metrics.childDisconnected();
        forwardWatches.remove(child); // the connection's state tells from now on
        settleLost(child, true);
    }

    /** {@code child} returns no credit: what it owes is settled as lost, as if its connection had closed. */
    private synchronized void onStalled(NodeInfo child) {
        metrics.childStalled();
        settleLost(child, false);
    }

    /**
     * Sends a stalled member sent around, {@code node}, its own tuples of {@code frame} ({@code copy}, routed by
     * {@code firstTask}, one of its tasks) into what is left of its stall buffer: for a frame this worker roots, its
     * window's ({@link io.whale.flow.FrameWindow#overdraw}), as the send path's own; for another source's, the bytes sent
     * it since it stalled ({@code whale.woc.stall.buffer.bytes}). Once that is spent they are counted lost. A member
     * that is slow, not gone (a host at its CPU quota while its worker starts), so loses none of them; its children have
     * theirs from here. Its credit for them is awaited by nobody: the parent's credit does not wait for a stalled
     * member, and its first credit makes it reachable again ({@link #reachable}).
     */
    private void sendAlone(RelayFrame frame, NodeInfo node, int firstTask, byte[] copy, int ownTuples) {
        CreditedConnection connection = connections.apply(node) instanceof CreditedConnection c ? c : null;
        boolean rootedHere = frame.incarnation() == incarnation;
        boolean buffered = rootedHere ? connection == null || connection.frameWindow().overdraw(ownTuples, copy.length)
            : takeStallBuffer(node, copy.length);
        if (!buffered) {
            metrics.lost(ownTuples);
            return;
        }
        if (connection != null) {
            link(connection, node);
            (rootedHere ? rooted : ledger).received(SETTLED_PARENT, frame.incarnation(), 0, List.of(node), new int[] {ownTuples},
                List.of(copy));
        }
        publish(new RelayFrameMessage(firstTask, copy));
        metrics.sentStalled(ownTuples);
    }

    /** Takes {@code bytes} of a stalled member's buffer of another source's frames; false once it is spent. */
    private boolean takeStallBuffer(NodeInfo node, int bytes) {
        long spent = stalledBytes.getOrDefault(node, 0L);
        if (spent + bytes > stallBufferBytes) {
            return false;
        }
        stalledBytes.put(node, spent + bytes);
        return true;
    }

    /**
     * What {@code child} owed is settled: its parents' credit is released at once, and each frame it had not credited
     * is sent on to its children (around any of them that cannot be reached either), oldest first. A child that had
     * not forwarded them yet, slow or gone, would otherwise leave a gap below it: its children take the frames sent
     * around it next and would drop its late forwards as repeats. They now have them, and drop the copies they already had.
     * The child's own tuples of those frames are counted lost: a child that is slow, not gone, still delivers them. The
     * same for the frames this worker rooted for the child: its windows and shaper wait for their credit from below. A
     * stalled child's late credit for what was settled is not taken for the frames it is forwarded later
     * ({@link RelayCreditLedger#childStalled}); a disconnected child's connection brings no more credit.
     */
    private void settleLost(NodeInfo child, boolean disconnected) {
        if (disconnected) {
            shaper.lost(child);
            sendOnBelow(ledger.childLost(child));
            sendOnBelow(rooted.childLost(child));
        } else {
            shaper.stalled(child);
            sendOnBelow(ledger.childStalled(child));
            sendOnBelow(rooted.childStalled(child));
        }
    }

    /** Releases what a lost child's settling owes parents, and sends the frames it had not credited on below it. */
    private void sendOnBelow(RelayCreditLedger.Settled<Consumer<TaskMessage>, byte[]> settled) {
        for (RelayCreditLedger.Release<Consumer<TaskMessage>> release : settled.releases()) {
            credit(release.parent(), release.incarnation(), release.tuples());
        }
        long below = 0;
        for (byte[] forwarded : settled.unsettled()) {
            RelayFrame frame = RelayFrameCodec.decode(forwarded);
            int tuplesBelow = frame.subtreeTasks() - frame.tasks().length;
            if (tuplesBelow > 0) {
                below += tuplesBelow;
                sendOnBelow(frame, tuplesBelow);
            }
        }
        metrics.lost(Math.max(0, settled.lostTuples() - below));
    }

    /**
     * Sends {@code frame}, as a lost child was forwarded it, on to that child's children ({@code tuplesBelow} tuples);
     * its own tasks are not here. Members below that cannot be reached count their own tuples lost, as in any frame.
     */
    private void sendOnBelow(RelayFrame frame, int tuplesBelow) {
        Forwards forwards;
        try {
            forwards = plan(frame);
        } catch (MalformedFrameException e) { // checked when it was forwarded; a worker found twice since is refused
            metrics.refused();
            metrics.lost(tuplesBelow);
            return;
        }
        forwardAndRegister(frame, forwards, SETTLED_PARENT);
        metrics.resent(tuplesBelow - forwards.lostTuples());
    }

    /**
     * A child's forwards: how long they have waited for its credit or beat, and the last of them, whose route gives the
     * child's subtree when it is found silent. The frame and route are written and read under the member's lock.
     */
    private static final class ChildWatch {
        private final CreditStall stall;
        private RelayFrame lastFrame;
        private RelayFrame.Child lastRoute;

        ChildWatch(long stallNanos) {
            this.stall = new CreditStall(stallNanos);
        }

        void forwarded(RelayFrame frame, RelayFrame.Child route, long nowNanos) {
            stall.waiting(nowNanos);
            lastFrame = frame;
            lastRoute = route;
        }

        int[] subtreeTasks() {
            return RelayFrameCodec.subtreeTasksOf(lastFrame, lastRoute);
        }
    }

    private static void beat(Consumer<TaskMessage> parent, long incarnation) {
        parent.accept(RelayCredit.message(List.of(new RelayCredit.Entry(incarnation, 0))));
    }

    private static void credit(Consumer<TaskMessage> parent, long incarnation, int tuples) {
        if (tuples > 0) {
            parent.accept(RelayCredit.message(List.of(new RelayCredit.Entry(incarnation, tuples))));
        }
    }
}
