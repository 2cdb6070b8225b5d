package io.whale.relay;

import io.whale.multicast.control.LateCredit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a relay owes the workers it receives frames from. A member credits its parent for a frame only once the
 * frame is done in its whole subtree: its own tasks have it and every child has credited the frame it was
 * forwarded. So the credit a root gets back means delivered everywhere below, the root's frame window bounds what
 * sits at every relay (a relay holds only frames its parent has not been credited for), and a root whose windows
 * are all empty knows nothing of its is in flight anywhere.
 *
 * <p>Children credit in tuples per source-worker incarnation, in any grouping; a relay applies a child's credit to
 * the frames it forwarded that child from that incarnation, oldest first. Pure (no I/O, no clock); parents
 * and children are whatever keys the caller uses (Netty channels, worker addresses). Thread-safe: receive
 * threads register frames and the client threads that read credits apply them. Each share keeps what was forwarded,
 * so that what a lost child owed can be sent on below it ({@link #childLost}).
 *
 * @param <P> a parent: where credit goes back
 * @param <C> a child: where frames were forwarded
 * @param <F> what a child was forwarded (the frame as it left)
 */
public final class RelayCreditLedger<P, C, F> {
    private final Map<Outstanding, ArrayDeque<Share>> outstanding = new HashMap<>();
    /** Per stalled child and source launch: the tuples settled without their credit, which a slow child still sends. */
    private final LateCredit<Outstanding> lateCredit = new LateCredit<>();
    private long heldTuples;

    /** Credit owed to {@code parent} for frames of the source worker's launch {@code incarnation}. */
    public record Release<P>(P parent, long incarnation, int tuples) {
    }

    /**
     * What settling a lost child gave: the credit now owed upstream, the tuples the child had not credited, and the
     * frames it had not credited in full, each source's oldest first.
     */
    public record Settled<P, F>(List<Release<P>> releases, long lostTuples, List<F> unsettled) {
    }

    /**
     * A frame from {@code parent} whose {@code ownTasks} copies this member has handed to its executors and which it
     * forwards to {@code children} ({@code childTuples[i]} tuples below {@code children.get(i)}, which was forwarded
     * {@code forwarded.get(i)}). Call it before the forwards can be sent: a child's credit can then never arrive before
     * its share is recorded.
     *
     * @return the credit owed at once (a leaf, or a member whose frame has no children), else null
     */
    public synchronized Release<P> received(P parent, long incarnation, int ownTasks, List<C> children, int[] childTuples,
                                            List<F> forwarded) {
        Frame frame = new Frame(parent, incarnation, ownTasks, children.size());
        for (int i = 0; i < children.size(); i++) {
            frame.tuples += childTuples[i];
            outstanding.computeIfAbsent(new Outstanding(children.get(i), incarnation), k -> new ArrayDeque<>())
                .add(new Share(frame, childTuples[i], forwarded.get(i)));
        }
        if (frame.waiting == 0) {
            return frame.release();
        }
        heldTuples += frame.tuples;
        return null;
    }

    /**
     * A frame {@link #received} for {@code child} alone, then not sent after all (the transfer queue was full): forgotten,
     * owing nothing. {@code forwarded} is its copy, told by identity.
     */
    public synchronized void withdraw(C child, long incarnation, F forwarded) {
        ArrayDeque<Share> shares = outstanding.get(new Outstanding(child, incarnation));
        Iterator<Share> it = shares == null ? null : shares.descendingIterator();
        while (it != null && it.hasNext()) {
            Share share = it.next();
            if (share.forwarded == forwarded) {
                it.remove();
                if (--share.frame.waiting == 0) {
                    heldTuples -= share.frame.tuples;
                }
                return;
            }
        }
    }

    /** {@code child} credited {@code tuples} for frames of {@code incarnation}; returns what that lets this member credit. */
    public synchronized List<Release<P>> credited(C child, long incarnation, int tuples) {
        List<Release<P>> releases = new ArrayList<>();
        Outstanding key = new Outstanding(child, incarnation);
        ArrayDeque<Share> shares = outstanding.get(key);
        int left = tuples - lateCredit.take(key, tuples);
        while (shares != null && left > 0 && !shares.isEmpty()) {
            Share head = shares.peek();
            int taken = Math.min(left, head.tuples);
            head.tuples -= taken;
            left -= taken;
            if (head.tuples == 0) {
                shares.poll();
                settle(head.frame, releases);
            }
        }
        return releases;
    }

    /**
     * {@code child} is gone (its connection closed): nothing it was forwarded will be credited. Its shares count as lost
     * and stop holding their frames' credit back, so the parents' windows do not stay shut; the frames go back to the
     * caller, which may send them on below the child.
     */
    public synchronized Settled<P, F> childLost(C child) {
        lateCredit.forget(key -> key.child.equals(child));
        return settle(child, false);
    }

    /**
     * {@code child} returns no credit (it stalled, its connection up): settled as {@link #childLost}, but a child that
     * was only slow still credits what it owed, later. That credit is for the frames settled here, so it is taken for
     * them, not for the frames the child is forwarded after: those stay owed until their own credit comes, and go on
     * below the child if it is lost again before.
     */
    public synchronized Settled<P, F> childStalled(C child) {
        return settle(child, true);
    }

    private Settled<P, F> settle(C child, boolean creditMayCome) {
        List<Release<P>> releases = new ArrayList<>();
        List<F> unsettled = new ArrayList<>();
        long lost = 0;
        Iterator<Map.Entry<Outstanding, ArrayDeque<Share>>> it = outstanding.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Outstanding, ArrayDeque<Share>> entry = it.next();
            if (!entry.getKey().child.equals(child)) {
                continue;
            }
            long owed = 0;
            for (Share share : entry.getValue()) {
                owed += share.tuples;
                unsettled.add(share.forwarded);
                settle(share.frame, releases);
            }
            if (creditMayCome) {
                lateCredit.owe(entry.getKey(), owed);
            }
            lost += owed;
            it.remove();
        }
        return new Settled<>(releases, lost, unsettled);
    }

    /** Whether {@code child} owes credit for a frame it was forwarded. */
    public synchronized boolean owes(C child) {
        for (Map.Entry<Outstanding, ArrayDeque<Share>> entry : outstanding.entrySet()) {
            if (entry.getKey().child.equals(child) && !entry.getValue().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** The parents, each with a launch of a source, that wait for this member's credit for a frame a child still owes. */
    public synchronized Set<Release<P>> waitingParents() {
        Set<Release<P>> waiting = new HashSet<>();
        for (ArrayDeque<Share> shares : outstanding.values()) {
            for (Share share : shares) {
                waiting.add(new Release<>(share.frame.parent, share.frame.incarnation, 0));
            }
        }
        return waiting;
    }

    /** Tuples of frames whose credit waits for a child: the relay's share of what its parents have in flight. */
    public synchronized long heldTuples() {
        return heldTuples;
    }

    private void settle(Frame frame, List<Release<P>> releases) {
        if (--frame.waiting == 0) {
            heldTuples -= frame.tuples;
            releases.add(frame.release());
        }
    }

    private record Outstanding(Object child, long incarnation) {
    }

    private final class Frame {
        private final P parent;
        private final long incarnation;
        private int tuples;
        private int waiting;

        Frame(P parent, long incarnation, int ownTasks, int waiting) {
            this.parent = parent;
            this.incarnation = incarnation;
            this.tuples = ownTasks;
            this.waiting = waiting;
        }

        Release<P> release() {
            return new Release<>(parent, incarnation, tuples);
        }
    }

    private final class Share {
        private final Frame frame;
        private final F forwarded;
        private int tuples;

        Share(Frame frame, int tuples, F forwarded) {
            this.frame = frame;
            this.tuples = tuples;
            this.forwarded = forwarded;
        }
    }
}
