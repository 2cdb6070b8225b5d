package io.whale.multicast.control;

import java.util.HashMap;
import java.util.Map;

/**
 * How a root worker moves its trees from one out-degree bound d* to another without reordering anything: drain,
 * then flip. Members route each frame by the route it carries, so a switch is only the root building frames for
 * another shape. But a frame built for the new shape could reach a member before an older frame still on its old
 * path, and the member would then drop the older one as a repeat (its sequence filter). So the shapes are
 * numbered (epochs): while a switch is pending, new frames are built for the next epoch and held, frames already
 * built for the current one still leave, and the flip comes once none of those is unsent and each child has
 * credited all it was sent (relay credit composes, so then every member has every frame). The held frames then
 * leave along the new shape, each executor's in its order.
 *
 * <p>One switch at a time. A child whose connection goes down owes nothing more ({@link #lost}): its frames are
 * counted lost by the relay, as a member counts them. Pure: time is passed in. Thread safe: executors build and
 * send, Netty threads credit.
 *
 * @param <C> a child of the root (its connection's peer)
 */
public final class ShapeSwitch<C> {
    /** A completed switch: the epoch it started, the bounds, and how long the drain took. */
    public record Flip(int epoch, int fromDegree, int toDegree, long drainNanos) {
    }

    /** A child that owed {@code owed} tuples' credit and returned none for {@code waitedNanos} from {@code sinceNanos}. */
    public record Waiting<C>(C child, long owed, long sinceNanos, long waitedNanos) {
    }

    /**
     * What a look at the credit found: the longest wait for a child's credit since the last look, whether the child
     * still waits or its credit ended the wait meanwhile (null if none), and since when the children that still owe
     * credit have waited ({@link Long#MAX_VALUE} when none owes any).
     */
    public record CreditLook<C>(Waiting<C> longest, long openSinceNanos) {
    }

    private volatile int sendingEpoch;
    private volatile int encodingEpoch;
    private int degree;
    private int pendingDegree;
    private long requestedNanos;
    private long unsentSending;
    private long unsentEncoding;
    private final Map<C, Long> inFlight = new HashMap<>();
    private long inFlightTotal;
    /** Per stalled child: what it owed when it stalled, whose credit a child that was only slow still sends. */
    private final LateCredit<C> lateCredit = new LateCredit<>();
    private long framesSent;
    private final Map<C, Long> waitingSince = new HashMap<>();
    private Waiting<C> longestEndedWait;

    public ShapeSwitch(int degree) {
        this.degree = degree;
    }

    /** The epoch new frames are built for. */
    public int encodingEpoch() {
        return encodingEpoch;
    }

    /** The d* of an epoch, or -1 when it is neither the current one nor the pending one. */
    public synchronized int degreeOf(int epoch) {
        if (epoch == sendingEpoch) {
            return degree;
        }
        return epoch == encodingEpoch ? pendingDegree : -1;
    }

    public synchronized int degree() {
        return degree;
    }

    public boolean switching() {
        return encodingEpoch != sendingEpoch;
    }

    /** Asks for a switch to {@code toDegree}; false (and nothing changes) while another is pending or if it is d*. */
    public synchronized boolean request(int toDegree, long nowNanos) {
        if (switching() || toDegree == degree) {
            return false;
        }
        pendingDegree = toDegree;
        requestedNanos = nowNanos;
        encodingEpoch = sendingEpoch + 1;
        return true;
    }

    /**
     * Counts {@code frames} built for {@code epoch} and not yet sent. False when the epoch is no longer the one new
     * frames are built for (a switch was asked for meanwhile): the caller builds them again for the new one.
     */
    public synchronized boolean register(int epoch, int frames) {
        if (epoch != encodingEpoch) {
            return false;
        }
        if (epoch == sendingEpoch) {
            unsentSending += frames;
        } else {
            unsentEncoding += frames;
        }
        return true;
    }

    /** Completes the pending switch if it has drained; returns it then, else null. */
    public Flip tryFlip(long nowNanos) {
        if (!switching()) {
            return null;
        }
        synchronized (this) {
            return flipIfDrained(nowNanos);
        }
    }

    /** Whether a frame built for {@code epoch} may leave now. */
    public boolean mayLeave(int epoch) {
        return epoch == sendingEpoch;
    }

    /**
     * A frame of {@code epoch} carrying {@code tuples} is leaving for {@code child}. Called before the frame is handed
     * on, as a window is taken before: the child's credit for it may come back before the sender's next statement.
     */
    public synchronized void sent(int epoch, C child, int tuples) {
        if (epoch == sendingEpoch) {
            unsentSending--;
        } else {
            unsentEncoding--;
        }
        inFlight.merge(child, (long) tuples, Long::sum);
        inFlightTotal += tuples;
        framesSent++;
    }

    /**
     * Frames already counted sent go on to {@code child} as well, carrying {@code tuples} (a lost child's frames, sent on
     * to its children): the flip waits for their credit too, since they are older than anything the next shape sends.
     */
    public synchronized void sentOn(C child, int tuples) {
        inFlight.merge(child, (long) tuples, Long::sum);
        inFlightTotal += tuples;
    }

    /** Undoes {@link #sent} for a frame that could not be handed on after all (it waits, unsent, again). */
    public synchronized void cancel(int epoch, C child, int tuples) {
        if (epoch == sendingEpoch) {
            unsentSending++;
        } else {
            unsentEncoding++;
        }
        framesSent--;
        settle(child, tuples);
    }

    /** {@code child}'s whole subtree has frames carrying {@code tuples} more; returns the flip this completed, if any. */
    public synchronized Flip credited(C child, int tuples, long nowNanos) {
        long owed = inFlight.getOrDefault(child, 0L);
        settle(child, tuples - lateCredit.take(child, tuples));
        Long since = tuples > 0 ? waitingSince.remove(child) : null;
        if (since != null) {
            if (longestEndedWait == null || nowNanos - since > longestEndedWait.waitedNanos()) {
                longestEndedWait = new Waiting<>(child, owed, since, nowNanos - since);
            }
            if (inFlight.getOrDefault(child, 0L) > 0) {
                waitingSince.put(child, nowNanos);
            }
        }
        return flipIfDrained(nowNanos);
    }

    private void settle(C child, int tuples) {
        Long owed = inFlight.get(child);
        if (owed != null) {
            long settled = Math.min(owed, tuples);
            inFlight.put(child, owed - settled);
            inFlightTotal -= settled;
        }
    }

    /** {@code child}'s connection went down: it owes nothing any more, and credits nothing it was sent. */
    public synchronized Flip lost(C child, long nowNanos) {
        lateCredit.forget(child::equals);
        forget(child);
        return flipIfDrained(nowNanos);
    }

    /**
     * {@code child} returned no credit for the stall bound, its connection up: it owes nothing any more, as if lost (the
     * relay settles what it owed), but a child that was only slow credits that later. Its late credit is taken for
     * what it owed here, not for the frames it is sent after: those are still awaited.
     */
    public synchronized Flip stalled(C child, long nowNanos) {
        lateCredit.owe(child, forget(child));
        return flipIfDrained(nowNanos);
    }

    private long forget(C child) {
        Long owed = inFlight.remove(child);
        if (owed == null) {
            return 0;
        }
        inFlightTotal -= owed;
        return owed;
    }

    /**
     * Looks at the credit (once per monitor interval). A child waits from the first look that found it owing, or from
     * its last credit if it still owed after it; its next credit ends the wait. The look may come long after a credit
     * ended a wait (the executors that look were held meanwhile), so ended waits count as well as open ones.
     */
    public synchronized CreditLook<C> lookAtCredit(long nowNanos) {
        waitingSince.keySet().removeIf(child -> inFlight.getOrDefault(child, 0L) == 0);
        Waiting<C> longest = longestEndedWait;
        longestEndedWait = null;
        long openSince = Long.MAX_VALUE;
        for (Map.Entry<C, Long> entry : inFlight.entrySet()) {
            if (entry.getValue() > 0) {
                long since = waitingSince.computeIfAbsent(entry.getKey(), child -> nowNanos);
                openSince = Math.min(openSince, since);
                if (longest == null || nowNanos - since > longest.waitedNanos()) {
                    longest = new Waiting<>(entry.getKey(), entry.getValue(), since, nowNanos - since);
                }
            }
        }
        return new CreditLook<>(longest, openSince);
    }

    /** Frames built and not yet handed on, of both epochs. */
    public synchronized long unsentFrames() {
        return unsentSending + unsentEncoding;
    }

    /** Frames handed on so far. */
    public synchronized long framesSent() {
        return framesSent;
    }

    /** Tuples sent along a tree and not yet credited by the whole subtree. */
    public synchronized long inFlightTuples() {
        return inFlightTotal;
    }

    private Flip flipIfDrained(long nowNanos) {
        if (!switching() || unsentSending > 0 || inFlightTotal > 0) {
            return null;
        }
        Flip flip = new Flip(encodingEpoch, degree, pendingDegree, nowNanos - requestedNanos);
        degree = pendingDegree;
        unsentSending = unsentEncoding;
        unsentEncoding = 0;
        sendingEpoch = encodingEpoch;
        return flip;
    }
}
