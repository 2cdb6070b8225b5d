package io.whale.relay;

import java.util.HashMap;
import java.util.Map;

/**
 * Which relay frames a member delivers: per source task and tree, only frames of the newest launch of the
 * source's worker (its incarnation, the launch time) and only in increasing {@code seq}, so no task ever sees a
 * frame twice (a second copy would make it ack the same edge twice and corrupt the acker's XOR) and a frame
 * still in flight from a worker that has since restarted is ignored. Frames skipped over (a gap in {@code seq})
 * are counted. Pure and single-threaded: the caller serializes per member.
 */
public final class SequenceFilter {
    private final Map<Key, Last> last = new HashMap<>();
    private long skippedFrames;

    public enum Verdict { DELIVER, DUPLICATE, STALE_INCARNATION }

    public Verdict accept(int sourceTask, int treeId, long incarnation, long seq) {
        Key key = new Key(sourceTask, treeId);
        Last seen = last.get(key);
        if (seen == null || incarnation > seen.incarnation) {
            last.put(key, new Last(incarnation, seq));
            return Verdict.DELIVER;
        }
        if (incarnation < seen.incarnation) {
            return Verdict.STALE_INCARNATION;
        }
        if (seq <= seen.seq) {
            return Verdict.DUPLICATE;
        }
        skippedFrames += seq - seen.seq - 1;
        seen.seq = seq;
        return Verdict.DELIVER;
    }

    /** Frames never seen that later frames of the same source, tree and incarnation skipped over. */
    public long skippedFrames() {
        return skippedFrames;
    }

    private record Key(int sourceTask, int treeId) {
    }

    private static final class Last {
        private final long incarnation;
        private long seq;

        Last(long incarnation, long seq) {
            this.incarnation = incarnation;
            this.seq = seq;
        }
    }
}
